import { z } from 'zod';
import { ApiError } from '../src/errors/api-error';
import { EXCERPT_MAX_BYTES, EXCERPT_MAX_LINES, excerptOf } from '../src/logs/excerpt';
import { LOG_FILE_PATTERN, LOG_STREAMS } from '../src/logs/streams';
import { defineRoute } from '../src/routes/define';

const LogFileEntry = z
  .object({
    stream: z.enum(LOG_STREAMS),
    file: z.string(),
    size: z.int().min(0),
    modified_at: z.int().meta({ description: 'Last modification, epoch milliseconds.' }),
  })
  .meta({ id: 'LogFileEntry' });

const LogExcerpt = LogFileEntry.extend({
  text: z.string().meta({ description: 'The end of the file, sanitized; it starts on a line boundary.' }),
  lines: z.int().min(0).max(EXCERPT_MAX_LINES),
  truncated: z.boolean().meta({ description: 'True when the file holds more than the excerpt.' }),
}).meta({ id: 'LogExcerpt' });

export const logRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/system/logs',
    tag: 'System',
    summary: 'Every log file of every stream',
    scopes: ['audit:read'],
    response: z.object({ items: z.array(LogFileEntry) }),
    handler: async ({ ctx }) => ({ items: await ctx.host.logs.list() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/system/logs/:stream/:file',
    tag: 'System',
    summary: 'The end of one log file (at most 256 KiB and 1000 lines), sanitized',
    scopes: ['audit:read'],
    params: z.object({ stream: z.enum(LOG_STREAMS), file: z.string().min(1).max(155).regex(LOG_FILE_PATTERN) }),
    response: LogExcerpt,
    errors: ['resource.not_found'],
    handler: async ({ ctx, params }) => {
      const tail = await ctx.host.logs.tail(params.stream, params.file, EXCERPT_MAX_BYTES);
      if (tail === null) throw new ApiError('resource.not_found', { resource: 'log_file', stream: params.stream, file: params.file });
      return { ...tail.entry, ...excerptOf(tail.bytes, tail.offset > 0) };
    },
  }),
];
