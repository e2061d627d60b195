import { files } from '../src/contracts/files';
import { fromBase64, toBase64 } from '../src/shared/base64';
import { ApiError } from '../src/shared/errors/api-error';
import { HostRefusal } from '../src/host/port';
import { implement } from './implement';

/**
 * The host refuses a files call only for its folder (names are checked before it is called): a
 * folder that is a link or leaves the data root.
 */
const folderChecked = <T>(call: Promise<T>): Promise<T> =>
  call.catch((error: unknown) => {
    throw error instanceof HostRefusal ? new ApiError('files.folder_refused') : error;
  });

export const fileRoutes = implement(files, {
  list: ({ ctx }) => folderChecked(ctx.host.files.list()),
  write: async ({ ctx, body, audit }) => {
    const bytes = fromBase64(body.base64);
    if ((await folderChecked(ctx.host.files.write(body.name, bytes))) === 'exists')
      throw new ApiError('files.exists', { name: body.name });
    await ctx.store.system.record(
      audit,
      'ok',
      { entity_type: 'file', entity_id: body.name, details: { size_bytes: bytes.length } },
      null,
    );
    return { ok: true as const };
  },
  read: async ({ ctx, query }) => {
    const bytes = await folderChecked(ctx.host.files.read(query.name));
    if (bytes === null) throw new ApiError('resource.not_found', { resource: 'file', name: query.name });
    return { base64: toBase64(bytes) };
  },
});
