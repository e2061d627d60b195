import { isReadOnly, type Contract } from '../../contracts/define';
import type { Scope } from '../../shared/scopes';
import { ApiCallError, type ApiClient } from '../client';
import { SECRET_SCOPES } from './tools';

/**
 * Which secret scopes the token holds. The service has no route that tells a token its own scopes,
 * so each is probed once at start-up: a read of a route that needs only that scope, with "-" for
 * every path parameter. The scope check comes before validation and lookup, so 403 means the token
 * lacks the scope and any other answer (404 for the made-up ids) means it holds it; no secret is
 * read. The service audits the probe like any call (source 'mcp'). When the service cannot be
 * reached, no secret tool is offered.
 */
export async function heldSecretScopes(client: ApiClient, contracts: readonly Contract[]): Promise<Set<Scope>> {
  const held = new Set<Scope>();
  for (const scope of SECRET_SCOPES) {
    const probe = contracts.find(
      (contract) => isReadOnly(contract) && contract.scopes?.length === 1 && contract.scopes[0] === scope,
    );
    if (!probe) continue;
    try {
      await client.request(probe, {
        params: Object.fromEntries([...probe.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, '-'])),
      });
      held.add(scope);
    } catch (error) {
      if (!(error instanceof ApiCallError)) throw error;
      if (error.status === 0)
        process.stderr.write(`lpa mcp: ${error.code}: ${error.message}; secret tools are not offered\n`);
      else if (error.status !== 403) held.add(scope);
    }
  }
  return held;
}
