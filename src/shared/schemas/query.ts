import { z } from 'zod';

/**
 * Query values are strings on the wire. These parse them strictly ("01", "1e3", " 1" and "" are
 * not integers) and the OpenAPI document shows their parsed type.
 */
export function queryInt(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, 'Expected a decimal integer')
    .transform(Number)
    .pipe(z.int().min(min).max(max));
}

export function queryBool() {
  return z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .pipe(z.boolean());
}
