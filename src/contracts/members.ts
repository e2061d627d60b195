import { z } from 'zod';
import { Ok } from '../shared/schemas/ok';
import { Member, MemberEmail, MemberList, MemberWrite } from '../../storage/members/schema';
import { defineContract } from './define';

const Named = z.object({ email: MemberEmail });

/**
 * A team's members and their roles (docs/teams.md). Served by the team service only: the local
 * service has no members, so this family is in the team routes only (src/teams/routes.ts), not in FAMILIES.
 */
export const members = {
  list: defineContract({
    method: 'GET',
    path: '/api/v1/members',
    home: 'team',
    tag: 'Members',
    summary: 'The members of the team and their roles',
    access: 'admin',
    response: MemberList,
  }),
  set: defineContract({
    method: 'PUT',
    path: '/api/v1/members/:email',
    home: 'team',
    tag: 'Members',
    summary: 'Add a member with a role, or give a member another role',
    description: 'The last owner of the team cannot be demoted: make another member owner first.',
    access: 'admin',
    params: Named,
    body: MemberWrite,
    response: Member,
    audit: 'members.write',
    errors: ['members.last_owner'],
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/api/v1/members/:email',
    home: 'team',
    tag: 'Members',
    summary: 'Remove a member; the last owner cannot be removed',
    access: 'admin',
    params: Named,
    response: Ok,
    audit: 'members.delete',
    errors: ['resource.not_found', 'members.last_owner'],
  }),
};
