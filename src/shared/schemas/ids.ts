import { z } from 'zod';

/** No item twice. */
export const unique = <T>(items: readonly T[]) => new Set(items).size === items.length;

/**
 * An array that refuses a repeated item (or, with `key`, two items with the same key), stated as
 * `uniqueItems` in the OpenAPI document. With a key JSON Schema can say only that whole items
 * differ, which the key implies; the message says the rest.
 */
export function uniqueItems<T extends z.ZodArray>(
  array: T,
  message: string,
  key: (item: z.output<T>[number]) => unknown = (item) => item,
) {
  return array.refine((items) => unique(items.map(key)), message).meta({ uniqueItems: true });
}

/** A UUID as `crypto.randomUUID()` writes it: a request id, a token's id, a store id. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as the automation routes take it: 1..64 characters. */
export const Id = z.string().min(1).max(64);

/** 1..1000 ids, each 1..64 characters, no id twice. */
export const IdList = uniqueItems(z.array(Id).min(1).max(1000), 'Ids must be unique');

/** The path parameters of a route addressing one item by its id, `…/:id`. */
export const IdParams = z.object({ id: Id });
