import type { z } from 'zod';
import { profiles } from '../src/contracts/profiles';
import { runBundles } from '../src/contracts/run-bundles';
import { runLeases } from '../src/contracts/run-leases';
import type { Contract } from '../src/contracts/define';
import { reached, teamErrorCode } from '../src/host/team-link-request';
import { ApiError } from '../src/shared/errors/api-error';
import { fromBase64 } from '../src/shared/base64';
import type { ProxyUpstream } from '../src/shared/schemas/proxy';
import { ERROR_CATALOG } from '../src/shared/errors/catalog';
import type { Lease } from '../storage/leases/schema';
import { perStore } from '../src/shared/store-memory';
import { utf8Bytes, utf8Text } from '../src/shared/unicode';
import type { RequestContext } from './context';

/*
 * A joined machine's side of a team profile's lease (docs/teams.md#runs-across-machines): taken before
 * the browser starts, renewed by the runs' watch only while the browser answers DevTools, released as
 * soon as the run ends. The team holds the lease; this machine only keeps when it last renewed each one.
 */

/** What the lease calls need of a request's or the watch's context. */
export type LeaseContext = Pick<RequestContext, 'host' | 'store' | 'memory' | 'config'> & { requestId?: string };

/** The team's refusals a machine passes on as they are: they are about the lease, and say whose it is. */
const PASSED_ON = [
  'run.locked_elsewhere',
  'run.lease_lost',
  'resource.not_found',
  'bundle.stale',
  'bundle.too_large',
  'bundle.corrupt',
] as const;

/** One of this machine's own calls of a team route, through the host that holds the team token. */
async function askTeam<R extends z.ZodType>(
  ctx: LeaseContext,
  route: Contract & { response?: R },
  profileId: string,
  body?: unknown,
): Promise<z.output<R>> {
  const headers: Record<string, string> = {};
  if (ctx.requestId) headers['x-lpa-request-id'] = ctx.requestId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = reached(
    await ctx.host.team.forward({
      method: route.method,
      target: route.path.replace(':id', encodeURIComponent(profileId)),
      headers,
      body: body === undefined ? null : utf8Bytes(JSON.stringify(body)),
    }),
  );
  let json: unknown = null;
  try {
    json = JSON.parse(utf8Text(answer.body));
  } catch {
    throw new ApiError('team.bad_answer', {
      status: answer.status,
      reason: 'the team answered a lease call without JSON',
    });
  }
  if (answer.status < 300) {
    const parsed = route.response!.safeParse(json);
    if (parsed.success) return parsed.data;
    throw new ApiError('team.bad_answer', {
      status: answer.status,
      reason: 'the team answered a lease call out of form',
    });
  }
  const error = (json as { error?: { code?: unknown; details?: unknown } } | null)?.error;
  const code = PASSED_ON.find((known) => known === error?.code);
  const details = code && ERROR_CATALOG[code].details.safeParse(error?.details);
  if (code && details?.success) throw new ApiError(code, details.data as Record<string, unknown>);
  throw new ApiError('team.refused', { status: answer.status, code: teamErrorCode(json, 'team.bad_answer') });
}

/** A lease this machine holds for one of its runs: when it last renewed it, and the profile's bundle key once opened. */
interface HeldLease {
  profileId: string;
  renewedAt: number;
  leaseMs: number;
  fencing: number;
  bundle: { key: Uint8Array; maxBytes: number } | null;
}

/** The leases of this machine's runs, by run id. */
const held = perStore(() => new Map<string, HeldLease>());

/** Takes the profile's lease for a run about to start: `run.locked_elsewhere` when another run holds it. */
export async function takeLease(ctx: LeaseContext, profileId: string, runId: string): Promise<Lease> {
  const lease = await askTeam(ctx, runLeases.take, profileId, {
    run_id: runId,
    machine_label: ctx.config.machineLabel ?? ctx.config.machineId ?? 'a machine',
  });
  held.of(ctx.memory).set(runId, {
    profileId,
    renewedAt: Date.now(),
    leaseMs: lease.lease_ms,
    fencing: lease.fencing,
    bundle: null,
  });
  return lease;
}

/**
 * Before a team profile's browser starts, under its lease: the team's newest version of the profile's
 * folder put in place of this machine's, unless this machine's is that version already
 * (docs/teams.md#what-travels); the profile's proxy, its password opened by the team, is returned. A version that cannot be fetched or opened stops the start
 * (`bundle.unusable`): a browser on older data would upload it as the newest when it ends.
 */
export async function fetchBundle(ctx: LeaseContext, profileId: string, runId: string): Promise<ProxyUpstream | null> {
  const lease = held.of(ctx.memory).get(runId);
  if (!lease) throw new ApiError('run.lease_lost', { profile_id: profileId, run_id: runId });
  const opened = await askTeam(ctx, runBundles.open, profileId, { run_id: runId });
  const key = fromBase64(opened.key);
  if (opened.bundle) {
    const unpacked = await ctx.host.runs.unpack(profileId, { run_id: runId, key, bundle: opened.bundle });
    if (!unpacked.ok) throw new ApiError('bundle.unusable', { profile_id: profileId, error: unpacked.error });
  }
  lease.bundle = { key, maxBytes: opened.max_bytes };
  return opened.proxy;
}

/**
 * A team profile's run that ran and has ended: the profile's folder packed and uploaded while the
 * lease is still this run's, then the lease given back. An upload that fails is logged and leaves the
 * team's previous version as it was; the lease is given back all the same.
 */
export async function handBack(ctx: LeaseContext, profileId: string, runId: string): Promise<void> {
  const lease = held.of(ctx.memory).get(runId);
  if (lease?.bundle) {
    try {
      const packed = await ctx.host.runs.pack(profileId, {
        run_id: runId,
        fencing: lease.fencing,
        key: lease.bundle.key,
        max_bytes: lease.bundle.maxBytes,
      });
      if (!packed.ok) throw new Error(`${packed.code ?? 'bundle'}: ${packed.error}`);
      const { ok: _, ...sums } = packed;
      await askTeam(ctx, runBundles.commit, profileId, { run_id: runId, fencing: lease.fencing, ...sums });
    } catch (error) {
      // The machine's `core` log, where its owner reads what went wrong (GET /api/v1/system/logs).
      await ctx.host.logs
        .append('core', [
          {
            ts: Date.now(),
            level: 'warn',
            message: `the profile's browser data was not uploaded; the team keeps its previous version: ${String(error).slice(0, 1000)}`,
            fields: { profile_id: profileId, run_id: runId },
          },
        ])
        .catch((logged: unknown) => console.error('a core log line could not be written:', logged));
    }
  }
  await releaseLease(ctx, profileId, runId);
}

/**
 * Gives the lease of a run that ended back at once, so that another machine may start the profile
 * without waiting for it to expire. A team that cannot be reached lets it expire instead.
 */
export async function releaseLease(ctx: LeaseContext, profileId: string, runId: string): Promise<void> {
  held.of(ctx.memory).delete(runId);
  await askTeam(ctx, runLeases.release, profileId, { run_id: runId }).catch((error: unknown) =>
    console.error(`the lease of run ${runId} could not be released; it expires by itself:`, error),
  );
}

/** How soon the watch must look again for the leases it keeps: a third of the shortest. */
export function renewEvery(ctx: LeaseContext): number {
  let every = Number.POSITIVE_INFINITY;
  for (const lease of held.of(ctx.memory).values()) every = Math.min(every, lease.leaseMs / 3);
  return every;
}

/**
 * The watch's turn for one live run of a team profile: renewed when a third of its lease has passed
 * and its browser answers DevTools. Returns false when the run must stop (`lease_lost`): the team
 * refused the renewal (broken, expired, taken), or no renewal went through for a whole lease (the team
 * unreachable, or the browser not answering), after which another machine may already hold it.
 */
export async function keepLease(ctx: LeaseContext, runId: string): Promise<boolean> {
  const lease = held.of(ctx.memory).get(runId);
  if (!lease) return true;
  const now = Date.now();
  if (now - lease.renewedAt < lease.leaseMs / 3) return true;
  if (await ctx.host.runs.answers(runId)) {
    try {
      const renewed = await askTeam(ctx, runLeases.renew, lease.profileId, { run_id: runId });
      lease.renewedAt = now;
      lease.leaseMs = renewed.lease_ms;
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'run.lease_lost' || error.code === 'resource.not_found'))
        return false;
      console.error(`the lease of run ${runId} could not be renewed:`, error);
    }
  }
  return Date.now() - lease.renewedAt < lease.leaseMs;
}

/** The team's profile, or the team's 404 for it: what a joined machine's run routes look a profile up in. */
export const teamProfile = (ctx: LeaseContext, id: string) => askTeam(ctx, profiles.read, id);

/** The team's live leases, as this machine's `GET /api/v1/team/runs` answers them. */
export const teamLeases = (ctx: LeaseContext) => askTeam(ctx, runLeases.list, '');
