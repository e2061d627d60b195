import { IMPORT_BODY_LIMIT, ImportRequest, ImportResult } from '../../storage/transfer/schema';
import { defineContract } from './define';

/**
 * The team's side of `lpa team push` (docs/teams.md#from-one-machine-to-a-team). Served by the team
 * service only: a machine's own store is never the target of a push, so this family is in
 * the team routes only (src/teams/routes.ts), not in FAMILIES, and the local service, its OpenAPI document, the CLI's
 * routes and the MCP tools do not know it.
 */
export const push = {
  import: defineContract({
    method: 'POST',
    path: '/api/v1/import',
    home: 'team',
    tag: 'Team push',
    summary:
      "Take a page of a solo store's items under their own ids: created, unchanged (already here exactly so), or conflict (never overwritten)",
    description:
      'Refused with 409 `team.not_empty` when the team holds data that was not pushed from the same `source.store_id`. Each created item is ' +
      "written with its `team.import` audit entry, whose `details.pushed_from` is `source` (the solo store's signed checkpoint); an unchanged " +
      "item or a conflict writes nothing. Secrets arrive in plaintext and are sealed with the team's vault key.",
    access: 'admin',
    body: ImportRequest,
    bodyLimit: IMPORT_BODY_LIMIT,
    response: ImportResult,
    audit: 'team.import',
    errors: ['team.not_empty'],
  }),
};
