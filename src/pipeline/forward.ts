import type { RequestContext } from '../../handlers/context';
import { parseTeamHead } from '../../storage/client';
import type { Route } from '../../handlers/implement';
import { CLIENT_HEADER } from '../shared/client-header';
import { ApiError } from '../shared/errors/api-error';
import { auditContext } from './audit-failure';
import { baseHeaders } from './respond';

/**
 * A `home: 'team'` route of a machine that joined a team (docs/teams.md#a-machine-in-a-team): once
 * the local guards, the local token's scopes and the local validation have passed, the request goes
 * to the team as an ordinary API request through the host (which holds the team token), and the
 * team's answer comes back with its status, body and error envelope as the team gave them. The local
 * request id rides along, so that the team's chain and this machine's name one request; an audited
 * route is also recorded in the local chain, with the team's answer.
 */
export async function forwardToTeam(request: Request, url: URL, route: Route, body: unknown, ctx: RequestContext, origin: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'x-lpa-request-id': ctx.requestId };
  if (ctx.principal?.actor.id) headers['x-lpa-local-token'] = ctx.principal.actor.id;
  const client = request.headers.get(CLIENT_HEADER);
  if (client !== null) headers[CLIENT_HEADER] = client.slice(0, 64);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await ctx.host.team.forward({
    method: request.method as 'GET',
    target: `${url.pathname}${url.search}`,
    headers,
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
  if (!answer.reachable) throw new ApiError('team.unreachable', { reason: answer.reason }, undefined, { 'retry-after': '5' });
  witness(ctx, ctx.config.teamUrl!, answer.headers['x-lpa-team-head']);
  if (route.audit) {
    const ok = answer.status < 400;
    const details = { team: { status: answer.status, request_id: answer.headers['x-request-id'] ?? null, head: answer.headers['x-lpa-team-head'] ?? null } };
    await ctx.store.system.record(auditContext(ctx, route.audit), ok ? 'ok' : 'error', { details }, ok ? null : errorCodeOf(answer.body));
  }
  const responseHeaders = new Headers(baseHeaders(ctx.requestId, origin));
  for (const [name, value] of Object.entries(answer.headers)) if (name !== 'x-request-id') responseHeaders.set(name, value);
  const payload = answer.status === 204 || request.method === 'HEAD' ? null : (answer.body as Uint8Array<ArrayBuffer>);
  return new Response(payload, { status: answer.status, headers: responseHeaders });
}

/**
 * Keeps the head the team answered with (docs/teams.md#audit-across-machines), after the answer: the
 * store writes it only when it differs from the last one, and a failure costs the witness one head,
 * never the request.
 */
function witness(ctx: RequestContext, team: string, header: string | undefined): void {
  const head = parseTeamHead(header);
  if (head) ctx.waitUntil(ctx.store.witness.see(team, head).catch((error: unknown) => console.error('could not keep the team head', error)));
}

/** The error code of the team's envelope, for the local entry; `team.error` when the body is not one. */
function errorCodeOf(body: Uint8Array): string {
  try {
    const code = (JSON.parse(new TextDecoder().decode(body)) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code.slice(0, 64) : 'team.error';
  } catch {
    return 'team.error';
  }
}
