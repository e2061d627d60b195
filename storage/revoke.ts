import { ApiError } from '../src/shared/errors/api-error';
import type { AuditContext } from './audit/entry';
import type { StoreContext } from './context';

/** What can be revoked, and its table: a revoked row stays (with `revoked_at`) for the audit's sake. */
const REVOCABLE = { token: 'tokens', share: 'automation_shares' } as const;

/**
 * Revokes the live `resource` with this id, or answers 404 when there is none (never made, or
 * already revoked), with its audit entry in the same transaction. `andThen` runs in that
 * transaction too, after the row is marked: what else the revocation takes away.
 */
export function revoke(
  ctx: StoreContext,
  audit: AuditContext,
  resource: keyof typeof REVOCABLE,
  id: string,
  andThen: () => void = () => {},
): void {
  ctx.change(
    audit,
    () => {
      if (
        ctx.db.run(
          `UPDATE ${REVOCABLE[resource]} SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`,
          ctx.now(),
          id,
        ) === 0
      ) {
        throw new ApiError('resource.not_found', { resource, id });
      }
      andThen();
    },
    () => ({ entity_type: resource, entity_id: id }),
  );
}
