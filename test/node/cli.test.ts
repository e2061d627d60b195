import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lpaOnTerminal, lpaRunner, type Run } from './cli-run';
import { raw, startService, type RunningService } from './service';

let service: RunningService;
const work = mkdtempSync(join(tmpdir(), 'lpa-cli-'));

const lpa = lpaRunner(() => service);
const onTerminal = lpaOnTerminal(() => service);

const api = (path: string, method = 'GET', body?: unknown) =>
  raw(service.port, path, {
    method,
    headers: {
      authorization: `Bearer ${service.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const PROFILES = 105;

beforeAll(async () => {
  service = await startService('workerd');
  for (let i = 1; i <= PROFILES; i++) {
    const res = await api('/api/v1/profiles', 'POST', { name: `cli-profile-${String(i).padStart(3, '0')}` });
    if (res.status !== 201) throw new Error(`profile ${i}: ${res.status} ${JSON.stringify(res.json)}`);
  }
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

describe('lpa --help', () => {
  const COMMANDS = [
    [],
    ['status'],
    ['membership'],
    ['membership', 'status'],
    ['account', 'status'],
    ['profiles'],
    ...['list', 'get', 'create', 'update', 'delete'].map((c) => ['profiles', c]),
    ['profile-accounts'],
    ...['list', 'add', 'update', 'delete', 'password', 'totp'].map((c) => ['profile-accounts', c]),
    ['accounts', 'list'],
    ['globals'],
    ...['list', 'get', 'set', 'delete'].map((c) => ['globals', c]),
    ['flows'],
    ...['list', 'get', 'create', 'update', 'delete'].map((c) => ['flows', c]),
    ['shares'],
    ...['list', 'create', 'revoke', 'redeem', 'import'].map((c) => ['shares', c]),
    ['files'],
    ...['list', 'put', 'get'].map((c) => ['files', c]),
    ['sync'],
    ['sync', 'status'],
    ['settings'],
    ['settings', 'logs'],
    ['settings', 'audit'],
    ['audit'],
    ...['list', 'verify', 'export', 'verify-file'].map((c) => ['audit', c]),
    ['tokens'],
    ...['create', 'list', 'revoke'].map((c) => ['tokens', c]),
    ['logs'],
    ['logs', 'list'],
    ['logs', 'show'],
    ['mcp'],
  ];
  it('is there on every command, with exit 0', async () => {
    // A few at a time: each is a Node process compiling the CLI, and the machine is shared.
    const runs: Run[] = [];
    for (let i = 0; i < COMMANDS.length; i += 4)
      runs.push(...(await Promise.all(COMMANDS.slice(i, i + 4).map((command) => lpa([...command, '--help'])))));
    runs.forEach((run, i) => {
      expect(run.code, COMMANDS[i]!.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: lpa/);
      expect(run.stdout).toContain('--help');
    });
  }, 300_000);

  it('names membership and profile-accounts, and still answers to their former names account and accounts', async () => {
    const help = (await lpa(['--help'])).stdout;
    expect(help).toMatch(/^ {2}membership\|account /m);
    expect(help).toMatch(/^ {2}profile-accounts\|accounts /m);
  });

  it('prints the package version with --version and -V', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    for (const flag of ['--version', '-V'])
      expect(await lpa([flag], { LPA_URL: 'http://127.0.0.1:1' })).toEqual({
        code: 0,
        stdout: `${version}\n`,
        stderr: '',
      });
  });

  it('refuses an unknown command with exit 2', async () => {
    const run = await lpa(['nonsense']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'nonsense'");
  });
});

describe('lpa status', () => {
  it('prints the core status for people, and as JSON', async () => {
    const human = await lpa(['status']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`data_root: ${service.dataRoot}`);
    const json = await lpa(['status', '--json']);
    expect(JSON.parse(json.stdout).api).toEqual({ url: `http://127.0.0.1:${service.port}`, port: service.port });
  });

  it('fails with the error code and a non-zero exit', async () => {
    const badToken = await lpa(['status'], { LPA_TOKEN: 'lpa_wrong-token' });
    expect(badToken.code).toBe(5);
    expect(badToken.stderr).toMatch(/^error: auth\.token_invalid \(HTTP 401\): /);
    const unreachable = await lpa(['status'], { LPA_URL: 'http://127.0.0.1:1' });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(/^error: cli\.unreachable: cannot reach http:\/\/127\.0\.0\.1:1/);
  });

  it('takes the token from the admin-token file of LPA_DATA_ROOT when LPA_TOKEN is not set', async () => {
    const run = await lpa(['status', '--json'], { LPA_TOKEN: '', LPA_DATA_ROOT: service.dataRoot });
    expect(run.code).toBe(0);
    const missing = await lpa(['status'], { LPA_TOKEN: '', LPA_DATA_ROOT: work });
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('error: cli.token_missing');
  });
});

describe('lpa profiles', () => {
  it('lists 100 profiles by default, with the cursor onward', async () => {
    const run = await lpa(['profiles', '--json']);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.items).toHaveLength(100);
    expect(answer.total).toBe(PROFILES);
    expect(answer.next_cursor).toEqual(expect.any(String));
    const human = await lpa(['profiles', '--limit', '2']);
    expect(human.stdout.split('\n')[0]).toMatch(/^NO\s+ID\s+NAME\s+GROUP\s+TAGS\s+PINNED$/);
    expect(human.stdout).toContain('cli-profile-001');
    expect(human.stdout).toContain(`2 of ${PROFILES}`);
  });

  it.each(['1', '100'])('accepts --limit %s', async (limit) => {
    const answer = JSON.parse((await lpa(['profiles', '--limit', limit, '--json'])).stdout);
    expect(answer.items).toHaveLength(Number(limit));
  });

  it.each(['0', '101', '1000', '-1', '1.5', 'ten', ''])(
    'refuses --limit %j with a clear message and exit 2',
    async (limit) => {
      const run = await lpa(['profiles', '--limit', limit]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('must be a whole number from 1 to 100');
      expect(run.stdout).toBe('');
    },
  );

  it('shows a progress bar for --all and the export on a terminal only', async () => {
    const all = await onTerminal(['profiles', '--all', '--limit', '40']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(new RegExp(`profiles \\[[^\\]]*\\] \\d+/${PROFILES} profiles`));
    expect(all.stdout).toContain(`${PROFILES} of ${PROFILES}`);
    const exported = await onTerminal(['audit', 'export', '--format', 'csv', '--out', join(work, 'tty.csv')]);
    expect(exported.stdout).toMatch(/export \[[^\]]*\] \d+\/\d+ KiB/);
    const verified = await onTerminal(['audit', 'verify']);
    expect(verified.stdout).toContain('verifying the audit chain…');
    expect(verified.stdout).toContain('ok: true');
    const piped = await lpa(['profiles', 'list', '--all', '--limit', '40']);
    expect(piped.stderr).toBe('');
  });

  it('walks every page with --all', async () => {
    const run = await lpa(['profiles', '--all', '--limit', '40', '--json']);
    const answer = JSON.parse(run.stdout);
    expect(answer.items).toHaveLength(PROFILES);
    expect(new Set(answer.items.map((p: { id: string }) => p.id)).size).toBe(PROFILES);
    expect(answer.next_cursor).toBeNull();
    const byDefault = JSON.parse((await lpa(['profiles', '--all', '--json'])).stdout);
    expect(byDefault.items.map((p: { no: number }) => p.no)).toEqual(answer.items.map((p: { no: number }) => p.no));
  });
});

describe('lpa tokens', () => {
  it('creates, lists and revokes a token; the audit records the command line as the source', async () => {
    const created = await lpa([
      'tokens',
      'create',
      '--name',
      'cli-made',
      '--scope',
      'audit:read',
      '--scope',
      'profiles:read',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const token = JSON.parse(created.stdout);
    expect(token).toMatchObject({
      id: expect.any(String),
      token: expect.stringMatching(/^lpa_/),
      name: 'cli-made',
      scopes: ['audit:read', 'profiles:read'],
    });

    const listed = await lpa(['tokens', 'list']);
    expect(listed.stdout).toMatch(new RegExp(`${token.id}\\s+cli-made\\s+audit:read,profiles:read`));
    // `lpa whoami` with that token: what the service knows of it, never its secret.
    const whoami = await lpa(['whoami', '--json'], { LPA_TOKEN: token.token });
    expect(JSON.parse(whoami.stdout)).toEqual({
      id: token.id,
      name: 'cli-made',
      scopes: ['audit:read', 'profiles:read'],
      admin: false,
      expires_at: null,
    });
    expect((await lpa(['whoami'], { LPA_TOKEN: token.token })).stdout).not.toContain(token.token);
    expect(listed.stdout).not.toContain(token.token);

    const entries = JSON.parse(
      (await lpa(['audit', 'list', '--action', 'tokens.create', '--source', 'cli', '--json'])).stdout,
    ).items;
    expect(entries).toEqual([
      expect.objectContaining({ entity_id: token.id, source: 'cli', actor_type: 'admin', result: 'ok' }),
    ]);

    const revoked = await lpa(['tokens', 'revoke', token.id]);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${token.id}\n` });
    const again = await lpa(['tokens', 'revoke', token.id]);
    expect(again.code).toBe(7);
    expect(again.stderr).toMatch(/^error: resource\.not_found \(HTTP 404\)/);
  });

  it('refuses a missing --name before calling the service', async () => {
    const run = await lpa(['tokens', 'create']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("required option '--name <name>' not specified");
  });
});

describe('errors', () => {
  it('name the field of a 400 in text, and are the envelope as JSON on stderr with --json (stdout empty, the same exit code)', async () => {
    const text = await lpa(['profiles', 'create', '--name', '']);
    expect(text).toMatchObject({ code: 4, stdout: '' });
    expect(text.stderr).toMatch(/^error: request\.invalid \(HTTP 400\): .*\n {2}body\.name: .+\n$/);
    const json = await lpa(['profiles', 'create', '--name', '', '--json']);
    expect(json).toMatchObject({ code: 4, stdout: '' });
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: {
        code: 'request.invalid',
        details: { issues: [expect.objectContaining({ in: 'body', path: ['name'] })] },
      },
    });
    const local = await lpa(['status', '--json'], { LPA_URL: 'http://127.0.0.1:1' });
    expect(local).toMatchObject({ code: 3, stdout: '' });
    expect(JSON.parse(local.stderr)).toEqual({
      error: { code: 'cli.unreachable', message: expect.any(String), details: {} },
    });
  });
});

describe('lpa globals', () => {
  it('sets, reads and deletes a global with its revision', async () => {
    const set = await lpa(['globals', 'set', 'cli_var', 'first value', '--revision', '0', '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ name: 'cli_var', revision: 1 });
    expect((await lpa(['globals', 'get', 'cli_var'])).stdout).toBe('first value\n(revision 1)\n');

    const file = join(work, 'value.txt');
    writeFileSync(file, 'from a file');
    expect((await lpa(['globals', 'set', 'cli_var', '--file', file, '--revision', '1'])).stdout).toContain(
      'revision: 2',
    );
    expect(JSON.parse((await lpa(['globals', 'get', 'cli_var', '--json'])).stdout)).toEqual({
      value: 'from a file',
      revision: 2,
    });

    const stale = await lpa(['globals', 'set', 'cli_var', 'late', '--revision', '1']);
    expect(stale.code).toBe(8);
    expect(stale.stderr).toMatch(/^error: state\.revision_conflict \(HTTP 409\)/);
    expect(stale.stderr).toContain('\n  current_revision: 2\n');
    const staleJson = await lpa(['globals', 'set', 'cli_var', 'late', '--revision', '1', '--json']);
    expect(staleJson).toMatchObject({ code: 8, stdout: '' });
    expect(JSON.parse(staleJson.stderr)).toMatchObject({
      error: { code: 'state.revision_conflict', message: expect.any(String), details: { current_revision: 2 } },
      request_id: expect.any(String),
    });
    const staleDelete = await lpa(['globals', 'delete', 'cli_var', '--revision', '1']);
    expect(staleDelete.code).toBe(8);
    expect(staleDelete.stderr).toContain('state.revision_conflict');

    expect(await lpa(['globals', 'delete', 'cli_var', '--revision', '2'])).toMatchObject({
      code: 0,
      stdout: 'deleted cli_var\n',
    });
    const gone = await lpa(['globals', 'get', 'cli_var']);
    expect(gone.code).toBe(7);
    expect(gone.stderr).toMatch(/^error: resource\.not_found \(HTTP 404\)/);
  });

  it('passes the service refusal of a bad name on with its code', async () => {
    const run = await lpa(['globals', 'get', '1-not-a-name']);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^error: request\.invalid \(HTTP 400\)/);
  });

  it('asks for a value when there is none', async () => {
    const run = await lpa(['globals', 'set', 'cli_empty', '--revision', '0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: cli.value_missing: give a value or --file\n');
  });

  it('refuses a revision that is not a whole number', async () => {
    const run = await lpa(['globals', 'set', 'cli_other', 'v', '--revision', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must be a whole number');
  });
});

describe('lpa audit', () => {
  it('lists entries for people and as JSON', async () => {
    const human = await lpa(['audit', 'list', '--limit', '3']);
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(/^SEQ\s+TS\s+ACTOR_LABEL\s+ACTION\s+RESULT/);
    expect(human.stdout).toMatch(/more: --before-seq \d+/);
    const json = JSON.parse((await lpa(['audit', 'list', '--limit', '2', '--json'])).stdout);
    expect(json.items).toHaveLength(2);
    expect(json.items[0].seq).toBeGreaterThan(json.items[1].seq);
    const refused = await lpa(['audit', 'list', '--limit', '1001']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('must be a whole number from 1 to 1000');
    const badCategory = await lpa(['audit', 'list', '--category', 'nope']);
    expect(badCategory.code).toBe(4);
    expect(badCategory.stderr).toMatch(/^error: request\.invalid \(HTTP 400\)/);
  });

  it('verifies the chain', async () => {
    const run = await lpa(['audit', 'verify']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ok: true');
    expect(JSON.parse((await lpa(['audit', 'verify', '--json'])).stdout)).toMatchObject({
      ok: true,
      first_bad_seq: null,
    });
  });

  it('exports to a file, nothing on stderr when piped, and the file verifies offline; an altered file does not', async () => {
    const file = join(work, 'audit.jsonl');
    const run = await lpa(['audit', 'export', '--format', 'jsonl', '--out', file]);
    expect(run.code).toBe(0);
    // Every line an entry, but the last: the head the store signed over the file.
    const [lines, head] = ((all) => [all.slice(0, -1), JSON.parse(all.at(-1)!).head])(
      readFileSync(file, 'utf8').trim().split('\n'),
    );
    expect(head).toMatchObject({ first_seq: 1, seq: JSON.parse(lines.at(-1)!).seq, signature: expect.any(String) });
    expect(run.stdout).toBe(`wrote ${lines.length} entries to ${file}\n`);
    expect(run.stderr).toBe('');
    expect(lines.length).toBeGreaterThan(PROFILES);

    const verified = await lpa(['audit', 'verify-file', file, '--json']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, checked: lines.length, first_bad_seq: null });

    const [key, checkpoint] = [join(work, 'audit-key.pem'), join(work, 'checkpoint.json')];
    expect((await lpa(['audit', 'public-key', '--out', key])).code).toBe(0);
    expect((await lpa(['audit', 'checkpoint', '--out', checkpoint])).code).toBe(0);
    const saved = JSON.parse(readFileSync(checkpoint, 'utf8'));
    const proven = await lpa(['audit', 'verify-file', file, '--public-key', key, '--checkpoint', checkpoint, '--json']);
    // Reading the audit writes no entry, so the checkpoint taken after the export is at its last line.
    expect(saved.seq).toBe(JSON.parse(lines.at(-1)!).seq);
    expect([proven.code, JSON.parse(proven.stdout)]).toMatchObject([
      0,
      { ok: true, checkpoint_seq: saved.seq, anchors: 0, missing_anchor: null, signed_head: true },
    ]);
    // Without its signed head the file's end is not proven: with the key it is refused.
    const headless = join(work, 'headless.jsonl');
    writeFileSync(headless, `${lines.join('\n')}\n`);
    const unproven = await lpa(['audit', 'verify-file', headless, '--public-key', key, '--json']);
    expect([unproven.code, JSON.parse(unproven.stdout)]).toMatchObject([
      1,
      { ok: false, signed_head: false, reason: expect.stringContaining('signed head') },
    ]);
    const noKey = await lpa(['audit', 'verify-file', file, '--checkpoint', checkpoint]);
    expect(noKey.code).toBe(2);

    // Issue 34: with the key only the bytes it signed pass: no field added, no key written twice, no byte that is not UTF-8.
    const sample = lines[3]!;
    const forged: [string, string][] = [
      ['a field added', `${sample.slice(0, -1)},"approved_by":"owner"}`],
      ['a key twice, the first another', `{"action":"tokens.revoke","actor_label":"owner",${sample.slice(1)}`],
    ];
    for (const [what, line] of forged) {
      const path = join(work, 'forged.jsonl');
      writeFileSync(path, `${lines.with(3, line).join('\n')}\n${JSON.stringify({ head })}\n`);
      const run = await lpa(['audit', 'verify-file', path, '--public-key', key, '--json']);
      expect([run.code, JSON.parse(run.stdout)], what).toMatchObject([
        1,
        { ok: false, first_bad_line: 4, first_bad_seq: JSON.parse(sample).seq, signed_head: true },
      ]);
    }
    const notUtf8 = join(work, 'not-utf8.jsonl');
    writeFileSync(notUtf8, Buffer.concat([readFileSync(file), Buffer.from([0xff])]));
    const undecodable = await lpa(['audit', 'verify-file', notUtf8, '--public-key', key, '--json']);
    expect([undecodable.code, JSON.parse(undecodable.stdout)]).toMatchObject([
      1,
      { ok: false, reason: 'the file is not UTF-8' },
    ]);

    const altered = join(work, 'altered.jsonl');
    const second = JSON.parse(lines[1]!);
    writeFileSync(
      altered,
      [lines[0], JSON.stringify({ ...second, actor_label: 'someone else' }), ...lines.slice(2)].join('\n'),
    );
    const refused = await lpa(['audit', 'verify-file', altered]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('ok: false');
    expect(refused.stdout).toContain(`first_bad_seq: ${second.seq}`);
  });

  it('exports CSV under the name the service gives, and says why a bad format fails', async () => {
    const run = await lpa(['audit', 'export', '--format', 'csv', '--json'], {}, work);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.file).toMatch(/\.csv$/);
    expect(readFileSync(join(work, answer.file), 'utf8').split('\n')[0]).toContain('seq');
    const bad = await lpa(['audit', 'export', '--format', 'xml']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/^error: request\.invalid \(HTTP 400\)/);
  });

  it('reports a file it cannot read', async () => {
    const run = await lpa(['audit', 'verify-file', join(work, 'absent.jsonl')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: cli\.file_unreadable: .*absent\.jsonl/);
  });
});

// The log routes land with issue 4; these run as soon as the route table has them.
describe('lpa logs', () => {
  it('lists the log files and shows the end of one', async () => {
    const listed = await lpa(['logs', 'list', '--json']);
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.stdout).items as { stream: string; file: string }[];
    const api = items.find((item) => item.stream === 'api');
    expect(api).toBeDefined();
    expect((await lpa(['logs', 'list'])).stdout).toMatch(/^STREAM\s+FILE\s+SIZE\s+MODIFIED_AT/);
    const shown = await lpa(['logs', 'show', 'api', api!.file, '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      stream: 'api',
      file: api!.file,
      text: expect.any(String),
      lines: expect.any(Number),
    });
    expect((await lpa(['logs', 'show', 'api', api!.file])).stdout).toContain('/api/v1/');
  });

  it('fails with the code of the service for a bad stream or an absent file', async () => {
    const badStream = await lpa(['logs', 'show', 'nope', 'a.log']);
    expect(badStream.code).toBe(4);
    expect(badStream.stderr).toMatch(/^error: request\.invalid \(HTTP 400\)/);
    const absent = await lpa(['logs', 'show', 'api', 'absent-file.log']);
    expect(absent.code).toBe(7);
    expect(absent.stderr).toMatch(/^error: resource\.not_found \(HTTP 404\)/);
  });
});
