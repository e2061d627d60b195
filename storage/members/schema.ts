import { z } from 'zod';
import { itemList } from '../../src/shared/schemas/list';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** An email as Access signs people in: a dot-atom local part of path-safe characters, a host name of two labels or more. */
const EMAIL = `(?=[^@]{1,64}@)[a-z0-9_+-]+(?:\\.[a-z0-9_+-]+)*@${LABEL}(?:\\.${LABEL})+`;
/** The client id of an Access service token: the `common_name` of the assertions Access signs for it. */
const SERVICE_TOKEN = '[a-z0-9]{8,64}\\.access';

/**
 * Who a member is: a person's email, or the client id of an Access service token (a machine that
 * comes through Access). Lower-cased, so that one person is one member whatever case their address
 * is typed in, but only once it is known to be ASCII: other characters lower-case into ASCII too
 * (KELVIN SIGN into `k`), and would sign in as a member Access never named.
 */
export const MemberEmail = z
  .string()
  .max(254)
  .regex(/^[\x21-\x7e]*$/, 'A member is written in ASCII')
  .toLowerCase()
  .regex(
    new RegExp(`^(?:${EMAIL}|${SERVICE_TOKEN})$`),
    'A member is an email address or an Access service token id (<id>.access)',
  )
  .meta({
    description:
      'An email address, or the client id of a Cloudflare Access service token; matched without regard to case.',
  });

export const MemberRole = z.enum(['owner', 'admin', 'member']);
export type MemberRole = z.output<typeof MemberRole>;

export const Member = z
  .object({ email: z.string(), role: MemberRole, created_at: z.int(), updated_at: z.int() })
  .meta({ id: 'Member' });
export type Member = z.output<typeof Member>;

export const MemberList = itemList(Member, 'MemberList');

/** What `PUT /api/v1/members/{email}` takes: the member's role, which creates or changes the member. */
export const MemberWrite = z.object({ role: MemberRole }).strict().meta({ id: 'MemberWrite' });
export type MemberWrite = z.output<typeof MemberWrite>;
