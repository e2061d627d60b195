import { reachability as reachabilityFamily, system } from '../src/contracts/system';
import type { FrontContext } from './context';
import { implement, implementFront } from './implement';

const API_VERSION = 1;
/** Below this much free space on the data root's file system, status reports the disk as low. */
const LOW_DISK_BYTES = 1024 ** 3;

/** `GET /status` needs no store: the local front answers it (`frontRoutes`), the team service's front too (src/teams/team-front.ts). */
export const reachability = ({ ctx }: { ctx: FrontContext }) => ({
  status: 'ok' as const,
  version: ctx.config.appVersion,
});

/** The local service's own front routes (src/runtimes/service.ts). */
export const frontRoutes = implementFront(reachabilityFamily, { reachability });

export const systemRoutes = implement(system, {
  version: async ({ ctx }) => ({
    app_version: ctx.config.appVersion,
    api_version: API_VERSION,
    db_version: (await ctx.storeFacts()).db_version,
  }),
  status: async ({ ctx }) => {
    const [info, free, logProblems, fileProblems, browser] = await Promise.all([
      ctx.store.system.info(),
      ctx.host.disk.free().catch(() => null),
      ctx.host.logs.problems().catch((error: unknown) => [`log folders could not be checked: ${String(error)}`]),
      ctx.host.files
        .problems()
        .catch((error: unknown) => [`the automation folder could not be checked: ${String(error)}`]),
      ctx.host.runs.browser().catch((error: unknown) => ({
        found: false as const,
        problem: `the browser could not be looked for: ${String(error)}`,
      })),
    ]);
    const warnings: string[] = [];
    if (info.vault.state !== 'unlocked')
      warnings.push(`vault is ${info.vault.state}: ${info.vault.reason ?? 'no reason given'}`);
    if (free === null) warnings.push('free disk space of the data root could not be measured');
    else if (free < LOW_DISK_BYTES) warnings.push(`less than 1 GiB free on the data root (${free} bytes)`);
    warnings.push(...logProblems, ...fileProblems);
    // Without a browser no profile can run (a start is 503 run.browser_missing); everything else works.
    if (!browser.found) warnings.push(browser.problem);
    const url = `http://127.0.0.1:${ctx.config.port}`;
    return {
      mode: warnings.length === 0 ? 'normal' : 'degraded',
      reason: warnings[0] ?? null,
      warnings,
      data_root: ctx.config.dataRoot,
      store_id: info.store_id,
      disk: free === null ? 'unknown' : free < LOW_DISK_BYTES ? 'low' : 'ok',
      disk_free_bytes: free,
      db_version: info.db_version,
      vault: info.vault,
      api: { url, port: ctx.config.port },
      browser: browser.found ? { path: browser.path, version: browser.version } : null,
    };
  },
});
