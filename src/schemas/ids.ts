import { z } from 'zod';

/** No item twice. */
export const unique = <T>(items: readonly T[]) => new Set(items).size === items.length;

/** An id as the automation routes take it: 1..64 characters. */
export const Id = z.string().min(1).max(64);

/** 1..1000 ids, each 1..64 characters, no id twice. */
export const IdList = z
  .array(Id)
  .min(1)
  .max(1000)
  .refine(unique, 'Ids must be unique');
