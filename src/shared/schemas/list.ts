import { z } from 'zod';

/** A listing, `{ items: [...] }`, named `id` in the OpenAPI document. */
export const itemList = <T extends z.ZodType>(item: T, id: string) => z.object({ items: z.array(item) }).meta({ id });
