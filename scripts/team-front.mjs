/**
 * The front of `npm run start:team` when the teams' objects are spread over several workerd
 * processes (docs/teams.md#run-it-locally): one HTTP listener that sends each team's requests to the
 * process that holds the team's Durable Object (./team-placement.mjs), as Cloudflare's network sends
 * them to wherever the object runs. The operator's `POST /v1/teams` goes where the team it names is
 * placed; everything else (`GET /status`, a path outside a team's API, a team no process has) goes
 * to the first process, which answers it as a single one would. The operator's route and a team's
 * path are the Worker's own declarations (src/shared/team-path.ts), read in the path the Worker sees:
 * so a request goes to the process of the team the Worker serves it for.
 *
 * It sets `CF-Connecting-IP` to the address the client connected from, replacing any the client
 * sent, as Cloudflare's edge does: the Worker keys its throttles and logs on it. Beside it goes the
 * run's front key (src/shared/team-front-key.ts), without which the Worker believes no address.
 */
import { Agent, createServer, request } from 'node:http';
// TypeScript, which Node loads by stripping its types (on by default from Node 22.18; ./start-team.mjs checks).
import { TEAM_FRONT_KEY_HEADER } from '../src/shared/team-front-key.ts';
import { CREATE_TEAM, splitTeamPath } from '../src/shared/team-path.ts';

/** The operator's creation names its team in the body: this much of it is read to route it. */
const CREATE_HEAD_LIMIT = 64 * 1024;
/**
 * A creation whose body has not ended by then goes to the first process with what arrived, where the
 * Worker's own body timeout (15 s, src/pipeline/body.ts) answers it: the front never waits for ever.
 */
const CREATE_HEAD_WAIT_MS = 5_000;
/** Request heads as large as workerd takes on its own (Node's default, 16 KiB, would refuse a 20 KiB one with 431). */
const MAX_HEADER_BYTES = 256 * 1024;
/** Connections to the processes idle this long are closed by the front first, so that none is reused as a process closes it. */
const IDLE_UPSTREAM_MS = 4_000;

/** The team a creation names, or null when its body does not say (the first process then answers what is wrong). */
function createdTeam(body) {
  try {
    const teamId = JSON.parse(body.toString('utf8'))?.team_id;
    return typeof teamId === 'string' ? teamId : null;
  } catch {
    return null;
  }
}

/**
 * The path of a request target as the Worker reads it (`new URL(request.url).pathname`): without its
 * query, dot segments resolved, an absolute-form target's own path; null when it is no URL.
 */
function pathOf(target) {
  try {
    return new URL(target, 'http://front.invalid').pathname;
  } catch {
    return null;
  }
}

/** The address as the Worker expects it: IPv4 without Node's `::ffff:` prefix. */
const clientAddress = (socket) => (socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * Listens on 127.0.0.1:`port` and forwards every request to one of `upstreams` (the ports of the
 * workerd processes, on 127.0.0.1), bodies streamed both ways, with `frontKey`; `placement` says
 * which holds a team. Resolves once it listens.
 */
export async function openTeamFront({ port, upstreams, placement, frontKey }) {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, timeout: IDLE_UPSTREAM_MS });

  /**
   * Sends the request on, `head` (what was read of its body already) first. `answered`, a creation's
   * only, gets the Worker's status, or null when none came; such a request, once its client has sent
   * it whole, goes on without the client, so that a team the Worker creates is placed even when its
   * client went away before the answer.
   */
  const forward = (client, answer, index, head = null, answered = null) => {
    const headers = {
      ...client.headers,
      'cf-connecting-ip': clientAddress(client.socket),
      [TEAM_FRONT_KEY_HEADER]: frontKey,
    };
    const upstream = request(
      { host: '127.0.0.1', port: upstreams[index], method: client.method, path: client.url, headers, agent },
      (reply) => {
        answered?.(reply.statusCode);
        if (answer.destroyed) return void reply.resume();
        answer.writeHead(reply.statusCode, reply.statusMessage, reply.rawHeaders);
        reply.pipe(answer);
        reply.on('error', () => answer.destroy());
      },
    );
    // A process that went away: the client sees its connection end, as it would with the process itself.
    upstream.on('error', () => {
      answered?.(null);
      answer.destroy();
    });
    answer.on('close', () => {
      if (!answer.writableFinished && !(answered && client.complete)) upstream.destroy();
    });
    if (head) upstream.write(head);
    client.pipe(upstream);
  };

  /** A creation: the first bytes of its body name the team, and go on ahead of the rest. */
  const create = (client, answer) => {
    const chunks = [];
    let length = 0;
    const route = () => {
      clearTimeout(waited);
      client.off('data', read).off('end', route).pause();
      const head = Buffer.concat(chunks, length);
      const teamId = createdTeam(head);
      const home = teamId === null ? null : placement.home(teamId);
      if (home !== null) return forward(client, answer, home, head);
      // A team not placed: placed where its creation goes once the Worker says it is there (./team-placement.mjs).
      const index = teamId === null ? null : placement.place(teamId);
      if (index === null) return forward(client, answer, 0, head);
      forward(client, answer, index, head, (status) => placement.settle(teamId, status === 201 || status === 409));
    };
    const read = (chunk) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= CREATE_HEAD_LIMIT) route();
    };
    const waited = setTimeout(route, CREATE_HEAD_WAIT_MS);
    client
      .on('data', read)
      .on('end', route)
      .on('close', () => clearTimeout(waited));
  };

  const server = createServer({ noDelay: true, maxHeaderSize: MAX_HEADER_BYTES }, (client, answer) => {
    const path = pathOf(client.url ?? '/');
    if (client.method === CREATE_TEAM.method && path === CREATE_TEAM.path) return create(client, answer);
    const team = path === null ? null : splitTeamPath(path);
    forward(client, answer, (team && placement.home(team.teamId)) ?? 0);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
