/**
 * Audited writes from many teams at once, each client its own keep-alive connection: what
 * `npm run bench -- --teams` drives. Each client writes one global of its own team with
 * `PUT …/automation/globals/{name}` and `expected_revision`, one request after another, and reads
 * every answer before the next request or the end, so the writes a team acknowledged are exactly
 * the ones it must find in its audit chain.
 */
import { Agent, request } from 'node:http';

export interface TeamClient {
  teamId: string;
  token: string;
}

export interface TeamFigures {
  /** 200 answers. */
  acknowledged: number;
  /** Other answers, timeouts and broken connections. */
  errors: number;
}

export interface WriteFigures {
  /** Per team, in the order the teams were given. */
  teams: TeamFigures[];
  /** Every request's latency, ms. */
  latencies: number[];
  /** The first few kinds of failure (status and answer), each with how often it came. */
  samples: string[];
  seconds: number;
}

/** A request that has not answered in this long counts as an error (and its connection is dropped). */
const TIMEOUT_MS = 30_000;
const SAMPLES = 5;

/** One JSON request on `agent`'s keep-alive connections, its whole answer read. */
export function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  token: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent,
        timeout: TIMEOUT_MS,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `clientsPerTeam` clients for each team, writing for `seconds`; globals are named `{prefix}_{client}_{errors so far}`,
 * new ones (revision 0) in every run.
 */
export async function teamWrites(
  port: number,
  teams: readonly TeamClient[],
  clientsPerTeam: number,
  seconds: number,
  prefix: string,
): Promise<WriteFigures> {
  // Every client keeps its connection between requests: no free socket may be closed for being one too many.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: teams.length * clientsPerTeam });
  const figures: WriteFigures = {
    teams: teams.map(() => ({ acknowledged: 0, errors: 0 })),
    latencies: [],
    samples: [],
    seconds,
  };
  const failures = new Map<string, number>();
  const value = JSON.stringify('x'.repeat(64));
  const started = performance.now();
  const deadline = started + seconds * 1000;

  const client = async (team: TeamClient, counts: TeamFigures, n: number) => {
    let path = '';
    let revision = 0;
    // A write that failed may or may not have committed, so its global's revision is unknown: the client goes on with a new global.
    const fresh = (attempt: number) => {
      path = `/teams/${team.teamId}/api/v1/automation/globals/${prefix}_${n}_${attempt}`;
      revision = 0;
    };
    fresh(0);
    while (performance.now() < deadline) {
      const sent = performance.now();
      const answer = await send(
        agent,
        port,
        'PUT',
        path,
        team.token,
        `{"value":${value},"expected_revision":${revision}}`,
      ).catch((error: Error) => ({ status: 0, text: error.message }));
      figures.latencies.push(performance.now() - sent);
      if (answer.status === 200) {
        revision = (JSON.parse(answer.text) as { revision: number }).revision;
        counts.acknowledged += 1;
      } else {
        counts.errors += 1;
        const kind = `${answer.status} ${answer.text.slice(0, 200)}`;
        if (failures.has(kind) || failures.size < SAMPLES) failures.set(kind, (failures.get(kind) ?? 0) + 1);
        fresh(counts.errors);
      }
    }
  };

  try {
    await Promise.all(
      teams.flatMap((team, t) =>
        Array.from({ length: clientsPerTeam }, (_, c) => client(team, figures.teams[t]!, t * clientsPerTeam + c)),
      ),
    );
  } finally {
    agent.destroy();
  }
  figures.seconds = (performance.now() - started) / 1000;
  figures.samples = [...failures].map(([kind, times]) => `${times}× ${kind}`);
  return figures;
}
