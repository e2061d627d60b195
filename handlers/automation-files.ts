import { z } from 'zod';
import { ApiError } from '../src/shared/errors/api-error';
import {
  AutomationFileContent,
  AutomationFileListing,
  AutomationFileName,
  AutomationFileWrite,
  FILE_BASE64_MAX_CHARS,
} from '../src/host/files-schema';
import { defineRoute } from '../src/routes/define';
import { Ok } from '../src/shared/schemas/ok';
import { fromBase64, toBase64 } from '../src/shared/base64';

/**
 * The largest legal body: base64 where every `/` is written `\/` (as some JSON encoders do), a
 * name of escaped characters, the field names and some white space.
 */
const FILE_BODY_LIMIT = 2 * FILE_BASE64_MAX_CHARS + 64 * 1024;

export const automationFileRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/files',
    tag: 'Automation',
    summary: 'The automation folder and its files',
    scopes: ['runtime:control'],
    response: AutomationFileListing,
    handler: ({ ctx }) => ctx.host.files.list(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/automation/files',
    tag: 'Automation',
    summary: 'Write a new file; an existing file is never replaced',
    scopes: ['runtime:control', 'rpa:write'],
    body: AutomationFileWrite,
    bodyLimit: FILE_BODY_LIMIT,
    response: Ok,
    audit: 'files.write',
    errors: ['files.exists'],
    handler: async ({ ctx, body, audit }) => {
      const bytes = fromBase64(body.base64);
      if ((await ctx.host.files.write(body.name, bytes)) === 'exists') throw new ApiError('files.exists', { name: body.name });
      await ctx.store.system.record(audit, 'ok', { entity_type: 'file', entity_id: body.name, details: { size_bytes: bytes.length } }, null);
      return { ok: true as const };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/files/content',
    tag: 'Automation',
    summary: 'A file as base64',
    scopes: ['runtime:control'],
    query: z.object({ name: AutomationFileName }).strict(),
    response: AutomationFileContent,
    errors: ['resource.not_found'],
    handler: async ({ ctx, query }) => {
      const bytes = await ctx.host.files.read(query.name);
      if (bytes === null) throw new ApiError('resource.not_found', { resource: 'file', name: query.name });
      return { base64: toBase64(bytes) };
    },
  }),
];
