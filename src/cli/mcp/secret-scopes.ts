import { tokens } from '../../contracts/tokens';
import type { Scope } from '../../shared/scopes';
import { ApiCallError, type ApiClient } from '../client';
import { SECRET_SCOPES } from './tools';

/**
 * Which secret scopes the token holds, from the token's own identity (the `tokens.self` route, as `lpa whoami` asks).
 * That route is a plain read with no audit action, so starting `lpa mcp` leaves the audit log as it
 * was. When the service cannot be reached or refuses the token, no secret tool is offered and stderr
 * says why; the other tools still start, and each call then answers with the service's refusal.
 */
export async function heldSecretScopes(client: ApiClient): Promise<Set<Scope>> {
  try {
    const self = await client.api(tokens.self);
    return new Set(SECRET_SCOPES.filter((scope) => self.admin || self.scopes.includes(scope)));
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error;
    process.stderr.write(`lpa mcp: ${error.code}: ${error.message}; secret tools are not offered\n`);
    return new Set();
  }
}
