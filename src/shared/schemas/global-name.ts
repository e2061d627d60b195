import { z } from 'zod';

/** The name of an automation global; a flow's `extract` step names one too. */
export const GlobalName = z
  .string()
  .max(64)
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A global name is a letter or _, then up to 63 letters, digits or _');
