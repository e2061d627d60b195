import type { RequestContext } from '../../handlers/context';
import { parseTeamHead, type TeamHead } from '../../storage/client';
import type { Contract } from '../contracts/define';
import { reached, teamErrorCode, type TeamReply } from '../host/team-link-request';
import { CLIENT_HEADER } from '../shared/client-header';
import { ApiError } from '../shared/errors/api-error';
import { ERROR_CATALOG } from '../shared/errors/catalog';
import { TEAM_HEAD_HEADER, teamHeadValue } from '../shared/schemas/team';
import { utf8Bytes, utf8Text } from '../shared/unicode';
import { auditContext } from './audit-failure';
import { baseHeaders, errorResponse } from './respond';
import { perStore } from '../shared/store-memory';

/** Statuses whose answer has no body (a Response with one would not even be built). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A `home: 'team'` route of a machine that joined a team (docs/teams.md#a-machine-in-a-team): once
 * the local guards, the local token's scopes and the local validation have passed, the request goes
 * to the team as an ordinary API request through the host (which holds the team token), and the
 * team's answer comes back with its status, body and error envelope as the team gave them. The local
 * request id rides along, so that the team's chain and this machine's name one request; an audited
 * route is also recorded in the local chain, with the team's answer. An answer that is not the team
 * API's (not JSON) is 502 `team.bad_answer`, and its head is neither witnessed nor passed on.
 */
export async function forwardToTeam(
  request: Request,
  url: URL,
  route: Contract,
  body: unknown,
  ctx: RequestContext,
  origin: string | null,
): Promise<Response> {
  const headers: Record<string, string> = { 'x-lpa-request-id': ctx.requestId };
  if (ctx.principal?.actor.id) headers['x-lpa-local-token'] = ctx.principal.actor.id;
  const client = request.headers.get(CLIENT_HEADER);
  if (client !== null) headers[CLIENT_HEADER] = client.slice(0, 64);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = reached(
    await ctx.host.team.forward({
      method: request.method as 'GET',
      target: `${url.pathname}${url.search}`,
      headers,
      body: body === undefined ? null : utf8Bytes(JSON.stringify(body)),
    }),
  );
  const bodyless = NULL_BODY.has(answer.status) || request.method === 'HEAD';
  const json = bodyless ? null : teamJson(answer);
  // A malformed head is the team's garbage: not kept, not passed on, not recorded.
  const head = parseTeamHead(answer.headers[TEAM_HEAD_HEADER]);
  if (head) witness(ctx, ctx.config.teamUrl!, head);
  const refusal = teamTokenRefusal(answer, json, route);
  if (route.audit) {
    const ok = answer.status < 400;
    const details = {
      team: {
        status: answer.status,
        request_id: answer.headers['x-request-id'] ?? null,
        head: head && teamHeadValue(head),
      },
    };
    await ctx.store.system.record(
      auditContext(ctx, route.audit),
      ok ? 'ok' : 'error',
      { details },
      ok ? null : (refusal?.code ?? teamErrorCode(json, 'team.error')),
    );
  }
  if (refusal) {
    const response = errorResponse(refusal, ctx.requestId, origin);
    if (head) response.headers.set(TEAM_HEAD_HEADER, teamHeadValue(head));
    return response;
  }
  const responseHeaders = new Headers(baseHeaders(ctx.requestId, origin));
  for (const [name, value] of Object.entries(answer.headers))
    if (name !== 'x-request-id' && name !== TEAM_HEAD_HEADER) responseHeaders.set(name, value);
  if (head) responseHeaders.set(TEAM_HEAD_HEADER, teamHeadValue(head));
  return new Response(bodyless ? null : (answer.body as Uint8Array<ArrayBuffer>), {
    status: answer.status,
    headers: responseHeaders,
  });
}

/**
 * The team's 403 for a missing scope, said as what it is. The local service checked the caller's
 * token for the route's scopes before forwarding, so such a refusal concerns the machine's team
 * token, and passing the team's `auth.scope_missing` on would tell the caller that their own token
 * lacks what it holds. (No route this machine forwards needs an admin session.)
 */
function teamTokenRefusal(answer: TeamReply, json: unknown, route: Contract): ApiError | null {
  if (answer.status !== 403) return null;
  const error = (json as { error?: { code?: unknown; details?: unknown } } | null)?.error;
  const team_request_id = answer.headers['x-request-id']?.slice(0, 64) ?? null;
  if (error?.code !== 'auth.scope_missing') return null;
  const named = ERROR_CATALOG['auth.scope_missing'].details.safeParse(error.details);
  // A team of another version may name scopes this one does not know: the route's own are missing then.
  const missing = named.success ? named.data.missing : [...(route.scopes ?? [])];
  return new ApiError('team.scope_missing', { missing, team_request_id });
}

/**
 * The answer's JSON; 502 `team.bad_answer` when it is not the team API's: every team route answers
 * JSON (an error envelope too), so anything else (a proxy's or a login page's HTML, a redirect, a
 * body garbled) is not passed on as if the team had said it.
 */
function teamJson(answer: TeamReply): unknown {
  const type = answer.headers['content-type'] ?? '';
  const refuse = (reason: string) => new ApiError('team.bad_answer', { status: answer.status, reason });
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw refuse(
      `the team answered ${answer.status} with content type ${JSON.stringify(type.slice(0, 100))}, not JSON`,
    );
  try {
    return JSON.parse(utf8Text(answer.body));
  } catch {
    throw refuse(`the team answered ${answer.status} with a body that is not JSON`);
  }
}

/**
 * The last head this store kept, as `<team> <seq>,<hash>`: most answers name the same head as the
 * one before, and the store would write nothing for it (storage/witness/witness.ts), so it is not asked.
 */
const lastKept = perStore(() => ({ head: '' }));

/**
 * Keeps the head the team answered with (docs/teams.md#audit-across-machines), after the answer: the
 * store writes it only when it differs from the last one, and a failure costs the witness one head,
 * never the request (the next answer with it asks again).
 */
function witness(ctx: RequestContext, team: string, head: TeamHead): void {
  const kept = lastKept.of(ctx.memory);
  const key = `${team} ${teamHeadValue(head)}`;
  if (kept.head === key) return;
  ctx.waitUntil(
    ctx.store.witness.see(team, head).then(
      () => void (kept.head = key),
      (error: unknown) => console.error('could not keep the team head', error),
    ),
  );
}
