import { z } from 'zod';
import { ApiError } from '../shared/errors/api-error';

export type InputPart = 'path' | 'query' | 'body';

/** Validates one part of the request; every problem is reported with where it is. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, part: InputPart): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError('request.invalid', {
    issues: result.error.issues.map((issue) => ({
      in: part,
      path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
      code: issue.code,
      message: issue.message,
    })),
  });
}

/** Query values as given: a name that appears twice becomes an array, which no schema accepts. */
export function queryObject(url: URL): Record<string, string | string[]> {
  if (url.search === '') return {};
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    const prev = out[name];
    out[name] = prev === undefined ? value : ([] as string[]).concat(prev, value);
  }
  return { ...out };
}

/** Path parameters arrive percent-encoded; a broken escape is invalid input, not a crash. */
export function decodeParams(raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError('request.invalid', {
        issues: [{ in: 'path', path: [name], code: 'invalid_format', message: 'Invalid percent-encoding' }],
      });
    }
  }
  return out;
}

/** A route without a query schema takes no query parameters: a misspelt filter is an error, not ignored. */
export const EMPTY_QUERY = z.object({}).strict();
