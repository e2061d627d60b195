/**
 * `npm run start:team` (scripts/start-team.mjs) as the service tests and the bench run it: on a free
 * port, with a data root of its own, its output in a file (the Worker logs every request: at load
 * that is far too much to hold in memory), and leading a process group of its own, so that stopping
 * it stops Miniflare's workerd with it. Plus the few calls every user of it makes, and a machine
 * (`npm start`) joined to one of its teams.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localAssertion } from '../../scripts/local-access.mjs';
import { freePort, startService, type RunningService } from './service';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Wrangler and Miniflare need Node 22: the pinned `node` package has it, whatever Node runs the tests. */
export const NODE_22 = join(ROOT, 'node_modules/node/bin/node');
/** Wrangler bundles the Worker before Miniflare listens: seconds, more on a loaded machine. */
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

export interface RunningTeamService {
  port: number;
  dataRoot: string;
  /** Where its output goes: the start line, Miniflare's, the Worker's log of every request. */
  logFile: string;
  operatorToken: string;
  process: ChildProcess;
  output: () => string;
  /** Stops the whole process group and waits until none of it is left. */
  stop: () => Promise<void>;
}

/** Processes of group `pgid` that still run (a zombie waits only for its parent to reap it). */
function groupRunning(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') return true;
    } catch {
      // exited while listed
    }
  }
  return false;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Starts the team service on `dataRoot` (a new temporary one by default) and resolves once
 * `GET /status` answers 200. Its output is appended to `logFile`, so a restart on the same data
 * root adds to what the first start wrote.
 */
export async function startTeamService(
  dataRoot = mkdtempSync(join(tmpdir(), 'lpa-team-')),
  {
    port,
    logFile = `${dataRoot}.log`,
    env = {},
  }: { port?: number; logFile?: string; env?: Record<string, string> } = {},
): Promise<RunningTeamService> {
  const listenOn = port ?? (await freePort());
  const out = openSync(logFile, 'a');
  const child = spawn(NODE_22, ['scripts/start-team.mjs'], {
    cwd: ROOT,
    env: { ...process.env, LPA_TEAM_PORT: String(listenOn), LPA_TEAM_DATA_ROOT: dataRoot, ...env },
    stdio: ['ignore', out, out],
    detached: true,
  });
  closeSync(out);
  const output = () => readFileSync(logFile, 'utf8');
  let exited = false;
  child.once('exit', () => (exited = true));

  const stop = async () => {
    const pgid = child.pid!;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-pgid, name);
      } catch {
        // the group is gone
      }
    };
    signal('SIGTERM');
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (!exited || groupRunning(pgid)) {
      if (Date.now() > deadline) signal('SIGKILL');
      await sleep(100);
    }
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited) throw new Error(`npm run start:team exited:\n${output().slice(-4000)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `npm run start:team did not answer GET /status within ${START_TIMEOUT_MS / 1000} s:\n${output().slice(-4000)}`,
      );
    }
    const status = await fetch(`http://127.0.0.1:${listenOn}/status`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await sleep(250);
  }
  return {
    port: listenOn,
    dataRoot,
    logFile,
    operatorToken: env.LPA_OPERATOR_TOKEN ?? readFileSync(join(dataRoot, 'operator-token'), 'utf8').trim(),
    process: child,
    output,
    stop,
  };
}

export interface TeamAnswer<T> {
  status: number;
  json: T;
}

/** One JSON request to the service (fetch sends `Host: 127.0.0.1:<port>`, an allowed host by default). */
export async function teamRequest<T = any>(
  service: { port: number },
  path: string,
  {
    method = 'GET',
    token,
    assertion,
    body,
  }: { method?: string; token?: string; assertion?: string; body?: unknown } = {},
): Promise<TeamAnswer<T>> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (assertion !== undefined) headers['cf-access-jwt-assertion'] = assertion;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T };
}

/** Like `teamRequest`, but an answer other than `expected` throws with what the service said. */
export async function teamOk<T = any>(
  service: { port: number },
  path: string,
  init: Parameters<typeof teamRequest>[2] = {},
  expected = init.method === 'POST' ? 201 : 200,
): Promise<T> {
  const answer = await teamRequest<T>(service, path, init);
  if (answer.status !== expected)
    throw new Error(
      `${init.method ?? 'GET'} ${path} answered ${answer.status}, not ${expected}: ${JSON.stringify(answer.json).slice(0, 500)}`,
    );
  return answer.json;
}

/** Creates a team as the operator does, with `owner` as its owner. */
export function createTeam(service: RunningTeamService, teamId: string, owner: string) {
  return teamRequest(service, '/v1/teams', {
    method: 'POST',
    token: service.operatorToken,
    body: { team_id: teamId, owner },
  });
}

/**
 * An admin team token, made by the team's owner signed in through the local Access stand-in (the
 * data root's key): what a script of the team would hold.
 */
export async function adminTeamToken(
  service: RunningTeamService,
  teamId: string,
  owner: string,
  name = 'admin',
): Promise<{ id: string; token: string }> {
  return teamOk(service, `/teams/${teamId}/api/v1/tokens`, {
    method: 'POST',
    assertion: await localAssertion(service.dataRoot, owner),
    body: { name, scopes: [], admin: true },
  });
}

/**
 * `npm start` on `dataRoot` joined to the team as a machine labelled `label`: `LPA_TEAM_URL` names the
 * team, and an admin team token of the owner's, named `label`, is in `<dataRoot>.token` (0600),
 * which `LPA_TEAM_TOKEN_FILE` names. `env` adds to the service's environment (its browser, say).
 */
export async function joinMachine(
  team: RunningTeamService,
  teamId: string,
  owner: string,
  label: string,
  dataRoot: string,
  env: Record<string, string> = {},
): Promise<RunningService> {
  const tokenFile = `${dataRoot}.token`;
  writeFileSync(tokenFile, `${(await adminTeamToken(team, teamId, owner, label)).token}\n`, { mode: 0o600 });
  return startService('workerd', dataRoot, {
    LPA_TEAM_URL: `http://127.0.0.1:${team.port}/teams/${teamId}`,
    LPA_TEAM_TOKEN_FILE: tokenFile,
    LPA_MACHINE_LABEL: label,
    ...env,
  });
}

/**
 * What under a data root (the root included) is open to other users of the machine: each as
 * `<mode> <path>`, none when every folder is 0700 and every file 0600 or narrower. Symbolic links
 * (always 0777) are left out; so is a file removed while the tree is read (an SQLite journal).
 */
export function openToOthers(root: string): string[] {
  const paths = [
    root,
    ...readdirSync(root, { recursive: true, withFileTypes: true }).map((e) => join(e.parentPath, e.name)),
  ];
  return paths.flatMap((path) => {
    let mode: number;
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) return [];
      mode = stat.mode;
    } catch {
      return [];
    }
    return (mode & 0o077) === 0 ? [] : [`${(mode & 0o777).toString(8)} ${path}`];
  });
}
