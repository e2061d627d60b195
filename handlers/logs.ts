import { logs } from '../src/contracts/logs';
import { ApiError } from '../src/shared/errors/api-error';
import { EXCERPT_MAX_BYTES, excerptOf } from '../src/shared/logs/excerpt';
import { implement } from './implement';

export const logRoutes = implement(logs, {
  list: async ({ ctx }) => ({ items: await ctx.host.logs.list() }),
  tail: async ({ ctx, params }) => {
    const tail = await ctx.host.logs.tail(params.stream, params.file, EXCERPT_MAX_BYTES);
    if (tail === null)
      throw new ApiError('resource.not_found', { resource: 'log_file', stream: params.stream, file: params.file });
    return { ...tail.entry, ...excerptOf(tail.bytes, tail.offset > 0) };
  },
});
