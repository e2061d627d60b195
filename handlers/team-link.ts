import type { z } from 'zod';
import { team } from '../src/contracts/team-link';
import { reached, teamErrorCode } from '../src/host/team-link-request';
import { ApiError } from '../src/shared/errors/api-error';
import type { RequestContext } from './context';
import { implement } from './implement';
import { teamLeases } from './team-runs';
import { verifyTeam, type TeamGet } from './team-link-verify';

const NOTHING_WITNESSED = { heads: 0, oldest_seq: null, newest: null, checkpoint: null } as const;

export const teamRoutes = implement(team, {
  status: async ({ ctx }) => ({
    joined: ctx.config.teamUrl !== null,
    url: ctx.config.teamUrl,
    machine_id: ctx.config.machineId,
    // Only the current link's witness: what the machine kept of a team it left stays in its store, unshown.
    witness: ctx.config.teamUrl === null ? NOTHING_WITNESSED : await ctx.store.witness.summary(ctx.config.teamUrl),
  }),
  verify: ({ ctx }) => {
    if (ctx.config.teamUrl === null) throw new ApiError('team.not_joined', {});
    return verifyTeam(ctx.store, ctx.config.teamUrl, teamReader(ctx), Date.now());
  },
  export: ({ ctx, query, audit }) => ctx.store.transfer.exportPage(audit, query),
  // A solo machine runs no team profile: no lease to show, rather than an error every page would have to hide.
  runs: async ({ ctx }) => (ctx.config.teamUrl === null ? { items: [] } : teamLeases(ctx)),
});

/** This machine's own reads of the team, through the host that holds the team token, under the request's id. */
function teamReader(ctx: RequestContext): TeamGet {
  return async <R extends z.ZodType>(route: { path: string; response?: R }, query: Record<string, number> = {}) => {
    const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
    const target = search ? `${route.path}?${search}` : route.path;
    const answer = reached(
      await ctx.host.team.forward({
        method: 'GET',
        target,
        headers: { 'x-lpa-request-id': ctx.requestId },
        body: null,
      }),
    );
    const json = jsonOf(answer.body);
    const parsed = route.response!.safeParse(json);
    if (answer.status !== 200 || !parsed.success)
      throw new ApiError('team.refused', { status: answer.status, code: teamErrorCode(json, 'team.bad_answer') });
    return parsed.data;
  };
}

function jsonOf(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
}
