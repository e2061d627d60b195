import { z } from 'zod';

/** The answer of a change that has nothing else to tell, such as a delete or a revoke. */
export const Ok = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });
