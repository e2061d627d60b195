import type { FrontContext } from '../../handlers/context';
import { UUID } from '../shared/schemas/ids';

const MACHINE_ID = /^[A-Za-z0-9-]{8,64}$/;

/**
 * On a team's service, a request that a joined machine forwards (src/pipeline/forward-to-team.ts) names the
 * machine, the local token it checked and its local request id. They are taken only from a request
 * a team token authenticated (a machine's credential), only in their expected shapes, and only as
 * labels: the team's audit entry records them in `details.via` and under the local request id, so
 * both chains name one request. They grant nothing.
 */
export function adoptMachine(request: Request, ctx: FrontContext): void {
  // A team token, scoped or admin (a machine's credential is often an admin one), carries its id; a member Access signed in has none.
  const actor = ctx.principal?.actor;
  if (!actor || actor.id === null || (actor.type !== 'token' && actor.type !== 'admin')) return;
  const machine = request.headers.get('x-lpa-machine');
  if (machine === null || !MACHINE_ID.test(machine)) return;
  const localToken = request.headers.get('x-lpa-local-token');
  ctx.via = { machine_id: machine, local_token_id: localToken !== null && UUID.test(localToken) ? localToken : null };
  const requestId = request.headers.get('x-lpa-request-id');
  if (requestId !== null && UUID.test(requestId)) ctx.requestId = requestId;
}
