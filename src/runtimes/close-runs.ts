import { runs } from '../contracts/runs';
import type { BrowserRuns } from '../host/node/browsers/browser-runs';

/**
 * The first step of a stop: the live runs are closed through the service's own API, as its admin,
 * while it still serves, so that its store records each browser's clean close (docs/runs.md#stop).
 * Nothing is asked when no browser runs. `serve` answers a request as the service does.
 */
export async function closeRuns(
  browsers: BrowserRuns,
  { port, adminToken }: { port: number; adminToken: string },
  serve: (request: Request) => Promise<Response>,
): Promise<void> {
  const { live, starting } = browsers.runsNow();
  if (live.length + starting.length === 0) return;
  const answer = await serve(
    new Request(`http://127.0.0.1:${port}${runs.stopAll.path}`, {
      method: runs.stopAll.method,
      headers: { authorization: `Bearer ${adminToken}` },
      signal: AbortSignal.timeout(30_000),
    }),
  );
  if (!answer.ok) throw new Error(`the runs could not be closed (HTTP ${answer.status})`);
}
