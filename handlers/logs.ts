import { z } from 'zod';
import { ApiError } from '../src/shared/errors/api-error';
import { EXCERPT_MAX_BYTES, excerptOf, LogExcerpt } from '../src/shared/logs/excerpt';
import { LogFileList, LogFileName, LogStream } from '../src/shared/logs/streams';
import { defineRoute } from '../src/routes/define';

export const logRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/system/logs',
    tag: 'System',
    summary: 'Every log file of every stream',
    scopes: ['audit:read'],
    response: LogFileList,
    handler: async ({ ctx }) => ({ items: await ctx.host.logs.list() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/system/logs/:stream/:file',
    tag: 'System',
    summary: 'The end of one log file (at most 256 KiB and 1000 lines), sanitized',
    scopes: ['audit:read'],
    params: z.object({ stream: LogStream, file: LogFileName }),
    response: LogExcerpt,
    errors: ['resource.not_found'],
    handler: async ({ ctx, params }) => {
      const tail = await ctx.host.logs.tail(params.stream, params.file, EXCERPT_MAX_BYTES);
      if (tail === null) throw new ApiError('resource.not_found', { resource: 'log_file', stream: params.stream, file: params.file });
      return { ...tail.entry, ...excerptOf(tail.bytes, tail.offset > 0) };
    },
  }),
];
