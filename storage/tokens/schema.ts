import { z } from 'zod';
import { uniqueItems } from '../../src/shared/schemas/ids';
import { itemList } from '../../src/shared/schemas/list';
import { SCOPES } from '../../src/shared/scopes';

/** A token as listed: never its secret, which only its creator sees, once. */
export const Token = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    admin: z.boolean(),
    created_at: z.int(),
    expires_at: z.int().nullable(),
  })
  .meta({ id: 'Token' });
export type Token = z.output<typeof Token>;

/** A token just issued, with its secret. */
export const CreatedToken = Token.extend({
  token: z.string().meta({ description: 'The bearer secret; shown once.' }),
}).meta({ id: 'CreatedToken' });
export type CreatedToken = z.output<typeof CreatedToken>;

export const TokenInput = z
  .object({
    name: z.string().min(1).max(120),
    scopes: uniqueItems(z.array(z.enum(SCOPES)).max(SCOPES.length), 'Scopes must be unique'),
    admin: z.boolean().optional(),
    expires_in_minutes: z.int().min(1).max(5_256_000).optional(),
  })
  .strict()
  .meta({ id: 'TokenInput' });
export type TokenInput = z.output<typeof TokenInput>;

export const TokenList = itemList(Token, 'TokenList');

/** The token a request came with, as it may know itself: what it may do, never its secret. */
export const TokenSelf = z
  .object({
    id: z.string().nullable().meta({ description: "The issued token's id; null for the data root's admin token." }),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    admin: z.boolean().meta({ description: 'An admin session: every scope, and the token routes.' }),
    expires_at: z.int().nullable(),
  })
  .meta({ id: 'TokenSelf' });
