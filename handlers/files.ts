import { files } from '../src/contracts/files';
import { fromBase64, toBase64 } from '../src/shared/base64';
import { ApiError } from '../src/shared/errors/api-error';
import { implement } from './implement';

export const fileRoutes = implement(files, {
  list: ({ ctx }) => ctx.host.files.list(),
  write: async ({ ctx, body, audit }) => {
    const bytes = fromBase64(body.base64);
    if ((await ctx.host.files.write(body.name, bytes)) === 'exists') throw new ApiError('files.exists', { name: body.name });
    await ctx.store.system.record(audit, 'ok', { entity_type: 'file', entity_id: body.name, details: { size_bytes: bytes.length } }, null);
    return { ok: true as const };
  },
  read: async ({ ctx, query }) => {
    const bytes = await ctx.host.files.read(query.name);
    if (bytes === null) throw new ApiError('resource.not_found', { resource: 'file', name: query.name });
    return { base64: toBase64(bytes) };
  },
});
