/**
 * The probe of #34's first finding, re-runnable against a team service with its front: credential-less
 * creations of made-up teams, each cut off as the review sent them, while another client asks
 * `GET /status` over and over. What it measures is what the finding was about: whether anything of the
 * creations is kept, and how long the other client waits meanwhile.
 */
import { connect, type Socket } from 'node:net';

/** What the front reads of a creation to find its team (scripts/team-front.mjs). */
const HEAD_BYTES = 64 * 1024;

/**
 * `POST /v1/teams` without a token, whose body names `teamId` in whole JSON within the first 64 KiB
 * (padded with the whitespace JSON allows) but declares twice that length: resolves with its socket
 * once those 64 KiB are written, for the caller to reset.
 */
function cutCreation(port: number, teamId: string): Promise<Socket> {
  const json = JSON.stringify({ team_id: teamId, owner: 'nobody@probe.example' });
  const body = json.padEnd(Math.max(HEAD_BYTES, json.length), ' ');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /v1/teams HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${2 * body.length}\r\n\r\n`,
      );
      socket.write(body, () => resolve(socket));
    });
    socket.on('error', () => {});
  });
}

/** Milliseconds of each `GET /status` asked one after another until `done` says stop. */
async function statusTimes(port: number, done: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!done()) {
    const started = performance.now();
    const answer = await fetch(`http://127.0.0.1:${port}/status`);
    await answer.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

/** The value below which `share` of `values` fall (nearest rank). */
export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

export interface FloodReport {
  creations: number;
  /** `GET /status` of another client while the creations ran and for `afterMs` after. */
  status: { count: number; p50: number; p99: number; max: number };
}

/**
 * `ids.length` cut creations at once, one per id, their connections all reset together a moment after
 * the last one's 64 KiB left (once the front has read them: their answers never come), while another
 * client times `GET /status`, until `afterMs` after the reset, while the front settles the creations.
 */
export async function floodCreations(port: number, ids: readonly string[], afterMs = 1_000): Promise<FloodReport> {
  let finished = false;
  const sampling = statusTimes(port, () => finished);
  const sockets = await Promise.all(ids.map((id) => cutCreation(port, id)));
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const socket of sockets) socket.resetAndDestroy();
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  finished = true;
  const times = await sampling;
  return {
    creations: ids.length,
    status: {
      count: times.length,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      max: Math.max(...times),
    },
  };
}
