/**
 * The edges of a machine's link to its team (docs/teams.md#audit-across-machines and #offline): one
 * `npm start` machine joined to a team the test plays on 127.0.0.1 (./fake-team.ts), so that each
 * witness finding is made for real and `lpa team verify` reports it; a machine that leaves one team
 * for another; and a team that hangs, stalls its body or answers garbage.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lpaRunner } from './cli-run';
import { FakeTeam, newSigner, randomHash } from './fake-team';
import { raw, startService, type RawResponse, type RunningService } from './service';

/** A start of the machine (workerd and its bundle): far more than the project's 30 s on a loaded machine. */
const START_MS = 60_000;

const team = new FakeTeam();
let machine: RunningService;
const lpa = lpaRunner(() => machine);

function call(path: string, { method = 'GET', body }: { method?: string; body?: unknown } = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${machine.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return raw(machine.port, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

const put = (name: string) =>
  call(`/api/v1/automation/globals/${name}`, { method: 'PUT', body: { value: name, expected_revision: 0 } });

/** What `GET /api/v1/team` shows, once the machine has kept `heads` heads (it keeps them after answering). */
async function witnessed(heads: number): Promise<any> {
  for (let tries = 0; ; tries += 1) {
    const status = await call('/api/v1/team');
    expect(status.status).toBe(200);
    if (status.json.witness.heads === heads || tries === 50) return status.json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `lpa team verify --json` and the human print, both: the answer, the exit code and the first line. */
async function verify(): Promise<{ answer: any; code: number; print: string }> {
  const json = await lpa(['team', 'verify', '--json']);
  const human = await lpa(['team', 'verify']);
  expect(human.code).toBe(json.code);
  return { answer: JSON.parse(json.stdout), code: json.code, print: human.stdout };
}

/** Joins the machine's data root to `teamId` with the CLI (leaving any team first) and restarts it. */
async function joinAndRestart(teamId: string): Promise<void> {
  const env = { LPA_DATA_ROOT: machine.dataRoot };
  expect((await lpa(['team', 'leave', '--json'], env)).code).toBe(0);
  const joined = await lpa(
    ['team', 'join', team.url(teamId), '--token-file', join(machine.dataRoot, 'team.token'), '--json'],
    env,
  );
  expect(joined.code, joined.stderr).toBe(0);
  await machine.stop();
  machine = await startService('workerd', machine.dataRoot);
}

beforeAll(async () => {
  await team.start();
  machine = await startService('workerd');
  writeFileSync(join(machine.dataRoot, 'team.token'), 'lpa_fake_team_token', { mode: 0o600 });
  await joinAndRestart('alpha');
}, 2 * START_MS);

afterAll(async () => {
  await machine?.stop();
  await team.stop();
});

describe('lpa team verify, each finding made by the team', () => {
  const alpha = () => team.chain('alpha');
  let seen: { seq: number; hash: string }[];

  it(
    'is ok while the team keeps what the machine saw, and pins the key',
    async () => {
      expect((await call('/api/v1/profiles')).status).toBe(200); // a read: the team's head is seq 1
      for (const name of ['w1', 'w2', 'w3']) expect((await put(name)).status).toBe(200);
      seen = [1, 2, 3, 4].map((seq) => ({ seq, hash: alpha().hashes[seq - 1]! }));
      expect((await witnessed(4)).witness).toMatchObject({
        heads: 4,
        oldest_seq: 1,
        newest: seen[3],
        checkpoint: null,
      });
      const { answer, code, print } = await verify();
      expect(code).toBe(0);
      expect(answer).toEqual({
        ok: true,
        finding: null,
        checked: 4,
        unchecked: 0,
        team_head: seen[3],
        fork_at: null,
        witnessed_hash: null,
        team_hash: null,
      });
      expect(print).toContain("ok: 4 witnessed heads match the team's chain (team head 4;");
      const link = await witnessed(4);
      expect(link).toMatchObject({ joined: true, url: team.url('alpha') });
      expect(link.witness.checkpoint).toMatchObject({
        key_id: alpha().signer.keyId,
        checkpoint: { seq: 4, store_id: alpha().storeId },
      });
    },
    START_MS,
  );

  it(
    'rolled_back: the team head is before a seq the machine saw (the rows past it cut)',
    async () => {
      const kept = alpha().hashes.splice(2); // seq 3 and 4 gone: the team's head is 2 again
      const { answer, code, print } = await verify();
      expect(code).toBe(1);
      expect(answer).toEqual({
        ok: false,
        finding: 'rolled_back',
        checked: 0,
        unchecked: 0,
        team_head: seen[1],
        fork_at: 3,
        witnessed_hash: seen[2]!.hash,
        team_hash: null,
      });
      expect(print).toContain('ROLLED BACK at seq 3');
      expect(print).toContain(`witnessed_hash: ${seen[2]!.hash}`);
      alpha().hashes.push(...kept);
    },
    START_MS,
  );

  it(
    'fork: the hash at a witnessed seq is another (the entry rewritten, the chain re-hashed)',
    async () => {
      const original = alpha().hashes[2]!;
      const rewritten = randomHash();
      alpha().hashes[2] = rewritten; // seq 3
      const { answer, code, print } = await verify();
      expect(code).toBe(1);
      expect(answer).toMatchObject({
        ok: false,
        finding: 'fork',
        fork_at: 3,
        witnessed_hash: original,
        team_hash: rewritten,
        checked: 2,
      });
      expect(print).toContain('FORK at seq 3');
      alpha().hashes[2] = original;
    },
    START_MS,
  );

  it(
    'key_changed: the team re-keyed, or its store is another, or another team answers at the URL',
    async () => {
      const { signer, storeId, hashes } = alpha();
      const cases: [string, () => void][] = [
        ['a new signing key', () => void (alpha().signer = newSigner())],
        ['another store id', () => void (alpha().storeId = randomUUID())],
        [
          'another team at the same URL',
          () => void team.teams.set('alpha', { storeId: randomUUID(), signer: newSigner(), hashes: [randomHash()] }),
        ],
      ];
      for (const [what, change] of cases) {
        change();
        const { answer, code, print } = await verify();
        expect(code, what).toBe(1);
        expect(answer, what).toMatchObject({
          ok: false,
          finding: 'key_changed',
          fork_at: null,
          witnessed_hash: null,
          team_hash: null,
        });
        expect(print, what).toContain('KEY CHANGED');
        team.teams.set('alpha', { signer, storeId, hashes });
      }
    },
    START_MS,
  );

  it(
    'bad_signature: the checkpoint does not verify with the pinned key',
    async () => {
      const cases: [string, (checkpoint: Record<string, unknown>) => void][] = [
        ['a field changed after signing', (checkpoint) => void (checkpoint.ts = (checkpoint.ts as number) + 1)],
        [
          'another signature',
          (checkpoint) =>
            void (checkpoint.signature = newSigner().sign({
              hash: checkpoint.hash,
              seq: checkpoint.seq,
              store_id: checkpoint.store_id,
              ts: checkpoint.ts,
            })),
        ],
        ['a key id that is not the key', (checkpoint) => void (checkpoint.key_id = 'f'.repeat(64))],
        ['a signature that is no base64', (checkpoint) => void (checkpoint.signature = 'not a signature!')],
      ];
      for (const [what, tamper] of cases) {
        alpha().tamper = tamper;
        const { answer, code, print } = await verify();
        expect(code, what).toBe(1);
        expect(answer, what).toMatchObject({
          ok: false,
          finding: 'bad_signature',
          team_head: { seq: 4 },
          fork_at: null,
        });
        expect(print, what).toContain('BAD SIGNATURE');
      }
      alpha().tamper = undefined;
    },
    START_MS,
  );

  it(
    'keeps nothing on a finding: the team as it was verifies ok again, against the first pin',
    async () => {
      const { answer, code } = await verify();
      expect(code).toBe(0);
      expect(answer).toMatchObject({ ok: true, checked: 4 });
      const link = await witnessed(4);
      expect(link.witness.checkpoint).toMatchObject({
        key_id: alpha().signer.keyId,
        checkpoint: { store_id: alpha().storeId, seq: 4 },
      });
    },
    START_MS,
  );
});

describe('what a team sends back is kept only in its documented form', () => {
  const alpha = () => team.chain('alpha');

  it(
    'a checkpoint or key that is not in its form, though signed, is refused and nothing of it kept: a hash or store id of 7,000 characters, a PEM with more around it',
    async () => {
      const before = (await witnessed(4)).witness;
      const long = 'ab'.repeat(3500);
      const cases: [string, () => () => void][] = [
        [
          'a hash of 7,000 characters at the head',
          () => {
            alpha().hashes.push(long);
            return () => void alpha().hashes.pop();
          },
        ],
        [
          'a store id of 7,000 characters',
          () => {
            const storeId = alpha().storeId;
            alpha().storeId = long;
            return () => void (alpha().storeId = storeId);
          },
        ],
        [
          'a PEM with 7,000 more characters after it',
          () => {
            alpha().tamperKey = (key) => void (key.public_key_pem = `${key.public_key_pem}${long}`);
            return () => void (alpha().tamperKey = undefined);
          },
        ],
      ];
      for (const [what, change] of cases) {
        const undo = change();
        const run = await lpa(['team', 'verify', '--json']);
        undo();
        expect(run.code, what).not.toBe(0);
        expect(JSON.parse(run.stderr).error, what).toMatchObject({
          code: 'team.refused',
          details: { status: 200, code: 'team.bad_answer' },
        });
        expect((await witnessed(4)).witness, what).toEqual(before);
      }
    },
    START_MS,
  );
});

describe('a machine that leaves its team and joins another', () => {
  it(
    "compares the new team only with what it saw of that team; the old team's evidence stays, unshown, until it rejoins",
    async () => {
      await joinAndRestart('beta');
      // The launcher's readiness check (`GET /api/v1/version`, a team route) is the first answer of beta: its head, seq 1.
      const beta = team.chain('beta');
      const fresh = await witnessed(1);
      expect(fresh).toMatchObject({
        joined: true,
        url: team.url('beta'),
        witness: { heads: 1, oldest_seq: 1, newest: { seq: 1, hash: beta.hashes[0] }, checkpoint: null },
      });

      // A first verify whose checkpoint does not verify pins nothing: a field changed after signing, or
      // a key id (checkpoint and key alike) that is not the hash of the key offered.
      const liar = 'e'.repeat(64);
      const firsts: [string, () => void][] = [
        ['a field changed after signing', () => void (beta.tamper = (checkpoint) => void (checkpoint.ts = 1))],
        [
          'a key id that is not the key',
          () => {
            beta.tamper = (checkpoint) => void (checkpoint.key_id = liar);
            beta.tamperKey = (key) => void (key.key_id = liar);
          },
        ],
      ];
      for (const [what, tamper] of firsts) {
        tamper();
        const refused = await verify();
        expect(refused.code, what).toBe(1);
        expect(refused.answer, what).toMatchObject({ ok: false, finding: 'bad_signature' });
        expect((await witnessed(1)).witness.checkpoint, what).toBeNull();
        beta.tamper = beta.tamperKey = undefined;
      }

      for (const name of ['b1', 'b2']) expect((await put(name)).status).toBe(200);
      expect((await witnessed(3)).witness).toMatchObject({
        heads: 3,
        oldest_seq: 1,
        newest: { seq: 3, hash: beta.hashes[2] },
      });
      const { answer, code } = await verify();
      expect(code).toBe(0);
      expect(answer).toEqual({
        ok: true,
        finding: null,
        checked: 3,
        unchecked: 0,
        team_head: { seq: 3, hash: beta.hashes[2] },
        fork_at: null,
        witnessed_hash: null,
        team_hash: null,
      });
      expect((await witnessed(3)).witness.checkpoint).toMatchObject({
        key_id: beta.signer.keyId,
        checkpoint: { store_id: beta.storeId, seq: 3 },
      });

      await joinAndRestart('alpha');
      const back = await witnessed(4);
      expect(back).toMatchObject({
        url: team.url('alpha'),
        witness: { heads: 4, oldest_seq: 1, checkpoint: { key_id: team.chain('alpha').signer.keyId } },
      });
      const again = await verify();
      expect(again.code).toBe(0);
      expect(again.answer).toMatchObject({ ok: true, checked: 4 });
    },
    3 * START_MS,
  );
});

describe('a team that does not answer', () => {
  const TIMEOUT_MS = 5_000;
  const timed = async <T>(work: Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const result = await work;
    return [result, performance.now() - started];
  };
  const expectUnreachable = (
    answer: RawResponse,
    elapsed: number,
    reason = `no answer within ${TIMEOUT_MS} ms`,
    bound = TIMEOUT_MS,
  ) => {
    expect(answer.status).toBe(503);
    expect(answer.json.error).toMatchObject({ code: 'team.unreachable', details: { reason } });
    expect(answer.headers['retry-after']).toBe('5');
    expect(elapsed).toBeGreaterThanOrEqual(bound - 100);
    expect(elapsed).toBeLessThan(bound + 2_000);
  };

  it(
    'that reads the request and never answers: 503 team.unreachable in 5 s, local routes answer meanwhile, and the next request goes through, no restart',
    async () => {
      const held: string[] = [];
      team.behaviour = (request) => void held.push(`${request.method} ${request.url}`);
      const read = timed(call('/api/v1/profiles'));
      const write = timed(put('while_hung'));
      const [local, localElapsed] = await timed(call('/api/v1/system/status'));
      expect(local.status).toBe(200);
      expect(localElapsed).toBeLessThan(2_000);
      for (const [answer, elapsed] of [await read, await write]) expectUnreachable(answer, elapsed);
      expect(held.sort()).toEqual([
        'GET /teams/alpha/api/v1/profiles',
        'PUT /teams/alpha/api/v1/automation/globals/while_hung',
      ]);
      expect(team.chain('alpha').hashes).toHaveLength(4); // the team applied nothing

      team.behaviour = undefined;
      const after = await put('while_hung');
      expect(after.status).toBe(200);
      expect(after.headers['x-lpa-team-head']).toBe(team.head('alpha'));
    },
    START_MS,
  );

  it(
    'that sends its headers and stalls the body: the same 503 in 5 s, and the head in those headers is not witnessed',
    async () => {
      const before = (await witnessed(5)).witness;
      team.behaviour = (request, response) => {
        request.resume();
        response.writeHead(200, { 'content-type': 'application/json', 'x-lpa-team-head': `99,${randomHash()}` });
        response.write('{"items":[');
      };
      const [answer, elapsed] = await timed(call('/api/v1/profiles'));
      expectUnreachable(answer, elapsed, `the team's answer stopped for ${TIMEOUT_MS} ms`);
      team.behaviour = undefined;
      expect((await witnessed(5)).witness).toEqual(before);
      expect((await call('/api/v1/profiles')).status).toBe(200);
    },
    START_MS,
  );

  it(
    'that trickles its body (a byte every second): cut at 30 s in all, the same 503',
    async () => {
      team.behaviour = (request, response) => {
        request.resume();
        response.writeHead(200, { 'content-type': 'application/json' });
        const drip = setInterval(() => response.write(' '), 1_000);
        response.once('close', () => clearInterval(drip));
      };
      const [answer, elapsed] = await timed(call('/api/v1/profiles'));
      team.behaviour = undefined;
      expectUnreachable(answer, elapsed, "the team's answer did not end within 30000 ms", 30_000);
    },
    START_MS,
  );

  it.each([
    ['with its length said up front', true],
    ['streamed without a length', false],
  ])(
    'that answers more than 24 MiB, %s: 502 team.bad_answer, nothing witnessed, and the machine goes on',
    async (_, sized) => {
      const before = (await witnessed(5)).witness;
      const size = 25 * 1024 * 1024;
      team.behaviour = (request, response) => {
        request.resume();
        response.writeHead(200, {
          'content-type': 'application/json',
          'x-lpa-team-head': `99,${randomHash()}`,
          ...(sized ? { 'content-length': String(size) } : {}),
        });
        const piece = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent < size && !response.destroyed) {
            sent += piece.length;
            if (!response.write(piece)) return void response.once('drain', more);
          }
          if (!response.destroyed) response.end();
        };
        more();
      };
      const [answer, elapsed] = await timed(call('/api/v1/audit/export?format=jsonl'));
      team.behaviour = undefined;
      expect(answer.status).toBe(502);
      expect(answer.json.error).toMatchObject({
        code: 'team.bad_answer',
        details: { status: null, reason: "the team's answer is larger than 24 MiB" },
      });
      expect(elapsed).toBeLessThan(7_000);
      expect((await witnessed(5)).witness).toEqual(before);
      expect((await call('/api/v1/profiles')).status).toBe(200);
    },
    START_MS,
  );

  it(
    "wrote nothing of the team's data to the machine's store: only the witness (per team) and its own chain's entries of the unanswered writes",
    async () => {
      const dataRoot = machine.dataRoot;
      await machine.stop();
      const folder = join(dataRoot, 'store');
      const file = readdirSync(folder, { recursive: true, encoding: 'utf8' }).find((name) => name.endsWith('.sqlite'));
      const db = new DatabaseSync(join(folder, file!), { readOnly: true });
      try {
        expect(db.prepare('SELECT count(*) AS n FROM automation_globals').get()!.n).toBe(0);
        const heads = db.prepare('SELECT team, count(*) AS n FROM team_heads GROUP BY team ORDER BY team').all();
        expect(heads).toEqual([
          { team: team.url('alpha'), n: 5 },
          { team: team.url('beta'), n: 3 },
        ]);
        const unanswered = db
          .prepare(
            `SELECT count(*) AS n FROM audit_log WHERE action = 'globals.write' AND error_code = 'team.unreachable'`,
          )
          .get()!;
        expect(unanswered.n).toBe(1);
      } finally {
        db.close();
      }
      machine = await startService('workerd', dataRoot);
    },
    START_MS,
  );
});

describe("a hostile team's answer to a forwarded write", () => {
  it(
    'leaves in the local chain only what is in its form: no 7,000-character request id, no error code with control characters, and passes on no header out of form',
    async () => {
      team.behaviour = (request, response) => {
        request.resume();
        request.once('end', () => {
          response.writeHead(409, {
            'content-type': 'application/json',
            'x-request-id': 'r'.repeat(7000),
            'retry-after': 'soon\u009b',
            'content-disposition': `attachment; filename="\u009b[31m.jsonl"`,
          });
          response.end(
            JSON.stringify({
              error: { code: 'team.x\u001b[31m<b>', message: 'no', details: {} },
              request_id: 'r'.repeat(7000),
            }),
          );
        });
      };
      const answer = await put('hostile_answer');
      team.behaviour = undefined;
      expect(answer.status).toBe(409);
      expect(answer.headers['retry-after']).toBeUndefined();
      expect(answer.headers['content-disposition']).toBeUndefined();
      // The machine's own chain, as its store file holds it (the audit routes of a joined machine are the team's).
      const dataRoot = machine.dataRoot;
      await machine.stop();
      const folder = join(dataRoot, 'store');
      const file = readdirSync(folder, { recursive: true, encoding: 'utf8' }).find((name) => name.endsWith('.sqlite'));
      const db = new DatabaseSync(join(folder, file!), { readOnly: true });
      try {
        const entry = db
          .prepare('SELECT result, error_code, details FROM audit_log WHERE request_id = ?')
          .get(answer.headers['x-request-id'] as string)!;
        expect(entry).toMatchObject({ result: 'error', error_code: 'team.error' });
        expect(JSON.parse(entry.details as string).team).toEqual({ status: 409, request_id: null, head: null });
      } finally {
        db.close();
      }
      machine = await startService('workerd', dataRoot);
    },
    START_MS,
  );
});
