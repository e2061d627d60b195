import { ApiError } from '../../src/shared/errors/api-error';
import { LIVE_RUN_STATES, type Run, type RunState } from '../../src/shared/schemas/run';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { DAY_MS } from '../../src/shared/time';

/** A run as the store keeps it: everything but its endpoints, whose secret only the host holds. */
export type StoredRun = Omit<Run, 'ws_endpoint' | 'http_endpoint'>;

type RunRow = Omit<StoredRun, 'headless'> & { headless: number };

/** What a signed-in account allows at a start; null when nobody is signed in (local mode: no limits). */
export interface RunQuota {
  runningProfiles: number | null;
  dailyStarts: number | null;
}

/** The UTC day of `now`, as the account status names it, and when it ends. */
export function startDay(now: number): { day: string; startsAt: number; resetAt: number } {
  const startsAt = Math.floor(now / DAY_MS) * DAY_MS;
  return { day: new Date(startsAt).toISOString().slice(0, 10), startsAt, resetAt: startsAt + DAY_MS };
}

/** How a run's browser ended, as the host saw it. */
export type RunEnding = Pick<StoredRun, 'state' | 'end_reason' | 'exit_code' | 'error' | 'ended_at'> & {
  state: Extract<RunState, 'stopped' | 'crashed'>;
};

/** The states of a run whose browser may be alive, as an SQL list; `LIVE` is the condition on a row of runs. */
export const LIVE_STATES_SQL = LIVE_RUN_STATES.map((state) => `'${state}'`).join(', ');
const LIVE = `state IN (${LIVE_STATES_SQL})`;
const COLUMNS =
  'id, profile_id, state, headless, debug_port, browser_version, pid, started_at, ended_at, end_reason, exit_code, error';

const toRun = ({ headless, ...row }: RunRow): StoredRun => ({ ...row, headless: headless === 1 });

/**
 * The runs of profiles' browsers (docs/runs.md): a row per start, its state moved as the host reports
 * the process. At most one live run per profile: `begin` refuses a second while one is live. A start
 * and every end of a run is an audit entry (category `startup`), in the transaction of its state change.
 */
export class Runs {
  constructor(private readonly ctx: StoreContext) {}

  get(id: string): StoredRun | null {
    const [row] = this.ctx.db.all<RunRow>(`SELECT ${COLUMNS} FROM runs WHERE id = ?`, id);
    return row ? toRun(row) : null;
  }

  /** The profile's newest run; null when it never ran. */
  latest(profileId: string): StoredRun | null {
    const [row] = this.ctx.db.all<RunRow>(
      `SELECT ${COLUMNS} FROM runs WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1`,
      profileId,
    );
    return row ? toRun(row) : null;
  }

  /** The runs whose browser may be alive, oldest first. */
  live(): StoredRun[] {
    return this.ctx.db.all<RunRow>(`SELECT ${COLUMNS} FROM runs WHERE ${LIVE} ORDER BY started_at`).map(toRun);
  }

  /** The starts of the UTC day of `now` (a failed start is none): what `dailyStarts` counts. */
  startsOn(now: number): number {
    return this.ctx.db.all<{ n: number }>(
      "SELECT count(*) AS n FROM runs WHERE started_at >= ? AND state != 'failed'",
      startDay(now).startsAt,
    )[0]!.n;
  }

  /**
   * A new run, `starting`: `run.active` when the profile has a live run, and within the signed-in
   * account's limits (running at once, starts of the day). Its audit entry comes with how the start ends.
   */
  begin(run: Pick<StoredRun, 'id' | 'profile_id' | 'headless' | 'started_at'>, quota: RunQuota | null): StoredRun {
    return this.ctx.db.transaction(() => {
      const live = this.live();
      const active = live.find((other) => other.profile_id === run.profile_id);
      if (active)
        throw new ApiError('run.active', { run_id: active.id, state: active.state, started_at: active.started_at });
      if (quota) this.assertQuota(quota, live.length, run.started_at);
      this.ctx.db.run(
        'INSERT INTO runs (id, profile_id, state, headless, started_at) VALUES (?, ?, ?, ?, ?)',
        run.id,
        run.profile_id,
        'starting',
        run.headless ? 1 : 0,
        run.started_at,
      );
      return this.get(run.id)!;
    });
  }

  private assertQuota(quota: RunQuota, running: number, now: number): void {
    if (quota.runningProfiles !== null && running >= quota.runningProfiles)
      throw new ApiError('account.running_limit', { max: quota.runningProfiles, running });
    if (quota.dailyStarts === null) return;
    const startedToday = this.startsOn(now);
    if (startedToday < quota.dailyStarts) return;
    const retryAfter = Math.max(1, Math.ceil((startDay(now).resetAt - now) / 1000));
    throw new ApiError(
      'account.daily_starts_limit',
      { max: quota.dailyStarts, started_today: startedToday, retry_after_s: retryAfter },
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }

  /** The browser answers DevTools: `running`, audited as the start. */
  running(
    audit: AuditContext,
    id: string,
    facts: Pick<StoredRun, 'pid' | 'browser_version' | 'debug_port'>,
  ): StoredRun {
    return this.ctx.change(
      audit,
      () => {
        this.ctx.db.run(
          "UPDATE runs SET state = 'running', pid = ?, browser_version = ?, debug_port = ? WHERE id = ?",
          facts.pid,
          facts.browser_version,
          facts.debug_port,
          id,
        );
        return this.get(id)!;
      },
      (run) => subject(run, { headless: run.headless, debug_port: run.debug_port !== null }),
    );
  }

  /** The browser never answered DevTools: `failed` (the start's failure is the pipeline's audit entry). */
  failed(id: string, error: string): StoredRun {
    this.ctx.db.run(
      "UPDATE runs SET state = 'failed', end_reason = 'failed', error = ?, ended_at = ? WHERE id = ?",
      error,
      this.ctx.now(),
      id,
    );
    return this.get(id)!;
  }

  /** A stop was asked for: `stopping` until the host says how it ended. */
  stopping(id: string): void {
    this.ctx.db.run(`UPDATE runs SET state = 'stopping' WHERE id = ? AND ${LIVE}`, id);
  }

  /** The browser is gone: the run's end, audited as the `audit` context says (a stop, or the end the host saw). */
  ended(audit: AuditContext, id: string, ending: RunEnding): StoredRun {
    return this.ctx.change(
      audit,
      () => {
        this.ctx.db.run(
          'UPDATE runs SET state = ?, end_reason = ?, exit_code = ?, error = ?, ended_at = ? WHERE id = ?',
          ending.state,
          ending.end_reason,
          ending.exit_code,
          ending.error,
          ending.ended_at,
          id,
        );
        return this.get(id)!;
      },
      (run) => subject(run, { state: run.state, end_reason: run.end_reason, exit_code: run.exit_code }),
    );
  }
}

/** A run's audit subject: the profile, and the run id in the details (never its endpoint). */
const subject = (run: StoredRun, details: Record<string, unknown>) => ({
  entity_type: 'profile',
  entity_id: run.profile_id,
  details: { run_id: run.id, ...details },
});
