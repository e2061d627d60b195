import { z } from 'zod';
import { itemList } from '../../src/shared/schemas/list';
import { queryInt } from '../../src/shared/schemas/query';
import { isWellFormed } from '../../src/shared/unicode';

export const GLOBAL_VALUE_MAX_CHARS = 1_048_576;

export { GlobalName } from '../../src/shared/schemas/global-name';

/** A global as a list shows it: never its value. */
export const GlobalSummary = z
  .object({ name: z.string(), revision: z.int(), bytes: z.int(), updated_at: z.int() })
  .meta({ id: 'GlobalSummary' });
export type GlobalSummary = z.output<typeof GlobalSummary>;

export const GlobalList = itemList(GlobalSummary, 'GlobalList');

export const GlobalValue = z.object({ value: z.string(), revision: z.int() }).meta({ id: 'GlobalValue' });
export type GlobalValue = z.output<typeof GlobalValue>;

/** `expected_revision` 0 creates; otherwise it must be the current revision. */
export const GlobalWrite = z
  .object({
    value: z
      .string()
      .max(GLOBAL_VALUE_MAX_CHARS)
      .refine(isWellFormed, 'The value must be valid Unicode (no lone surrogates)'),
    expected_revision: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict()
  .meta({ id: 'GlobalWrite' });
export type GlobalWrite = z.output<typeof GlobalWrite>;

/** A delete names the revision it saw, in the query. */
export const GlobalDelete = z.object({ expected_revision: queryInt(1) }).strict();
export type GlobalDelete = z.output<typeof GlobalDelete>;
