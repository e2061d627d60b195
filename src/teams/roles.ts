import type { Principal } from '../../handlers/context';
import type { MemberRole } from '../../storage/members/schema';
import type { Scope } from '../shared/scopes';

/**
 * What each role of a team may do, the table of issue 20: owners and admins are admin sessions (every
 * route, members and tokens included); a member has the scopes of a token that reads and changes
 * profiles and their platform accounts, and no scope that reads a secret or the audit log. Owner
 * differs from admin only in the members rule: a team always keeps an owner.
 */
export const ROLES = {
  owner: { admin: true, scopes: [] },
  admin: { admin: true, scopes: [] },
  member: { admin: false, scopes: ['profiles:read', 'profiles:write', 'rpa:write'] },
} as const satisfies Record<MemberRole, { admin: boolean; scopes: readonly Scope[] }>;

/** The principal of a member who came through Cloudflare Access, as the pipeline hands it to the routes. */
export function memberPrincipal(email: string, role: MemberRole): Principal {
  const { admin, scopes } = ROLES[role];
  return { actor: { type: 'member', id: null, label: email }, scopes, admin };
}
