import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from './api-client';
import { lpaRunner } from './cli-run';
import { startService, type RunningService } from './service';

let service: RunningService;
let admin: ApiClient;
const lpa = lpaRunner(() => service);
/** Each test runs several commands, each a Node process compiling the CLI, on a shared machine. */
const LONG = 180_000;
const work = mkdtempSync(join(tmpdir(), 'lpa-cli-families-'));

/** Runs a command with --json and returns its answer; a failure fails the test with its stderr. */
async function json(args: string[], input?: string): Promise<any> {
  const run = await lpa([...args, '--json'], {}, work, input);
  expect(run, `lpa ${args.join(' ')}`).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

beforeAll(async () => {
  service = await startService('workerd');
  admin = apiClient(service.port, service.token);
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

describe('lpa profiles', () => {
  it(
    'creates, reads, updates and deletes a profile',
    async () => {
      const created = await json([
        'profiles',
        'create',
        '--name',
        'cli one',
        '--group',
        'work',
        '--tag',
        'a',
        '--tag',
        'b',
        '--pinned',
      ]);
      expect(created).toMatchObject({ name: 'cli one', group: 'work', tags: ['a', 'b'], pinned: true, notes: null });
      expect(await json(['profiles', 'get', created.id])).toEqual(created);
      const human = await lpa(['profiles', 'get', created.id]);
      expect(human.stdout).toContain('name: cli one');

      const updated = await json([
        'profiles',
        'update',
        created.id,
        '--name',
        'cli renamed',
        '--no-group',
        '--no-pinned',
        '--notes',
        'n',
      ]);
      expect(updated).toMatchObject({
        id: created.id,
        name: 'cli renamed',
        group: null,
        tags: ['a', 'b'],
        pinned: false,
        notes: 'n',
      });
      expect((await json(['profiles', 'list'])).items.map((p: { id: string }) => p.id)).toContain(created.id);

      expect(await lpa(['profiles', 'delete', created.id])).toMatchObject({
        code: 0,
        stdout: `deleted ${created.id}\n`,
      });
      const gone = await lpa(['profiles', 'get', created.id]);
      expect(gone.code).toBe(7);
      expect(gone.stderr).toMatch(/^error: resource\.not_found \(HTTP 404\): /);
      const invalid = await lpa(['profiles', 'create', '--name', 'x'.repeat(121)]);
      expect(invalid.code).toBe(4);
      expect(invalid.stderr).toMatch(/^error: request\.invalid \(HTTP 400\): /);
    },
    LONG,
  );
});

describe('lpa profile-accounts', () => {
  it(
    'adds, lists, updates and deletes an account; reads its password and TOTP code',
    async () => {
      const profile = await json(['profiles', 'create', '--name', 'with accounts']);
      const secret = join(work, 'password.txt');
      writeFileSync(secret, 'hunter2\n');
      const added = await json([
        'profile-accounts',
        'add',
        profile.id,
        '--url',
        'https://example.com',
        '--username',
        'me',
        '--password-file',
        secret,
      ]);
      expect(added).toMatchObject({
        profile_id: profile.id,
        platform_url: 'https://example.com',
        username: 'me',
        password_set: true,
        totp_set: false,
      });
      expect(await lpa(['profile-accounts', 'password', profile.id, added.id])).toMatchObject({
        code: 0,
        stdout: 'hunter2\n',
      });

      // The 2FA secret from standard input.
      const withTotp = await json(
        ['profile-accounts', 'update', profile.id, added.id, '--totp-file', '-'],
        'JBSWY3DPEHPK3PXP\n',
      );
      expect(withTotp.totp_set).toBe(true);
      const code = await json(['profile-accounts', 'totp', profile.id, added.id]);
      expect(code).toEqual({ code: expect.stringMatching(/^[0-9]{6}$/), remaining_s: expect.any(Number) });
      expect((await lpa(['profile-accounts', 'totp', profile.id, added.id])).stdout).toMatch(
        /^[0-9]{6}\n\(valid \d+ s\)\n$/,
      );

      const listed = await lpa(['profile-accounts', 'list', profile.id]);
      expect(listed.stdout).toMatch(
        new RegExp(
          `^ID\\s+PLATFORM_URL\\s+USERNAME\\s+PASSWORD_SET\\s+TOTP_SET\\s+SORT_ORDER\\n${added.id}\\s+https://example.com\\s+me\\s+true\\s+true`,
        ),
      );
      expect(listed.stdout).not.toContain('hunter2');

      const removed = await json([
        'profile-accounts',
        'update',
        profile.id,
        added.id,
        '--remove-password',
        '--no-username',
      ]);
      expect(removed).toMatchObject({ password_set: false, username: null, totp_set: true });
      const none = await lpa(['profile-accounts', 'password', profile.id, added.id]);
      expect(none.code).toBe(7);

      expect(await lpa(['profile-accounts', 'delete', profile.id, added.id])).toMatchObject({
        code: 0,
        stdout: `deleted ${added.id}\n`,
      });
      // The former name still works for scripts written before the rename.
      expect((await json(['accounts', 'list', profile.id])).items).toEqual([]);
      const unreadable = await lpa([
        'profile-accounts',
        'add',
        profile.id,
        '--url',
        'https://x.example',
        '--password-file',
        join(work, 'absent'),
      ]);
      expect(unreadable.code).toBe(1);
      expect(unreadable.stderr).toMatch(/^error: cli\.file_unreadable: /);
    },
    LONG,
  );

  it(
    'exits 6 with the envelope code when the token lacks the scope',
    async () => {
      const token = (
        await admin('/api/v1/tokens', { method: 'POST', body: { name: 'read-only', scopes: ['profiles:read'] } })
      ).json.token;
      const run = await lpa(['profiles', 'create', '--name', 'refused'], { LPA_TOKEN: token });
      expect(run.code).toBe(6);
      expect(run.stderr).toMatch(/^error: auth\.scope_missing \(HTTP 403\): /);
    },
    LONG,
  );
});

describe('lpa globals list, flows and shares', () => {
  it(
    'lists globals without values',
    async () => {
      await json(['globals', 'set', 'listed_var', 'secret value', '--revision', '0']);
      const listed = await json(['globals', 'list']);
      expect(listed.items).toContainEqual(expect.objectContaining({ name: 'listed_var', revision: 1 }));
      const human = await lpa(['globals', 'list']);
      expect(human.stdout).toMatch(/^NAME\s+REVISION\s+BYTES\s+UPDATED_AT\nlisted_var\s+1\s+12/);
      expect(human.stdout).not.toContain('secret value');
    },
    LONG,
  );

  it(
    'creates, lists, reads, shares, redeems, imports and deletes flows',
    async () => {
      const file = join(work, 'flow.json');
      writeFileSync(
        file,
        JSON.stringify({
          name: 'cli flow',
          steps: [{ type: 'open_url', url: 'https://example.com' }],
          values: [{ name: 'v', value: '1' }],
        }),
      );
      const created = await lpa(['flows', 'create', '--file', file]);
      expect(created.stdout).toMatch(/^created (\S+) \(cli flow\)\n$/);
      const id = /^created (\S+)/.exec(created.stdout)![1]!;
      expect((await json(['flows', 'get', id])).steps).toEqual([{ type: 'open_url', url: 'https://example.com' }]);
      expect((await lpa(['flows', 'list'])).stdout).toMatch(new RegExp(`^ID\\s+NAME.*\\n${id}\\s+cli flow`));
      // An edit from standard input: only the given fields change.
      const edited = await lpa(
        ['flows', 'update', id, '--file', '-'],
        {},
        work,
        JSON.stringify({ name: 'cli flow', description: 'edited', values: [{ name: 'v' }] }),
      );
      expect(edited).toMatchObject({ code: 0, stdout: `updated ${id} (cli flow)\n` });
      expect(await json(['flows', 'get', id])).toMatchObject({
        description: 'edited',
        steps: [{ type: 'open_url', url: 'https://example.com' }],
        values: [{ name: 'v', value: '1', protected: false }],
      });
      const refused = await lpa(['flows', 'update', id, '--file', '-'], {}, work, '{}');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/^error: request\.invalid \(HTTP 400\): /);

      const share = await json([
        'shares',
        'create',
        '--flow',
        id,
        '--name',
        'cli share',
        '--expires-in-minutes',
        '60',
        '--max-uses',
        '2',
      ]);
      expect(share).toMatchObject({ name: 'cli share', max_uses: 2, uses: 0, code: expect.any(String) });
      expect((await json(['shares', 'list'])).items).toContainEqual(
        expect.objectContaining({ id: share.id, name: 'cli share' }),
      );
      const listed = await lpa(['shares', 'list']);
      expect(listed.stdout).not.toContain(share.code);
      // Times for people are ISO 8601 whether the API gives epoch milliseconds or text; --json keeps the API's value.
      expect(share.expires_at).toEqual(expect.any(Number));
      expect(listed.stdout).toContain(new Date(share.expires_at).toISOString());
      expect(
        (
          await lpa([
            'shares',
            'create',
            '--flow',
            id,
            '--name',
            'iso share',
            '--expires-in-minutes',
            '5',
            '--max-uses',
            '1',
          ])
        ).stdout,
      ).toMatch(/^expires_at: \d{4}-\d\d-\d\dT[\d:.]+Z$/m);
      for (const command of [
        ['shares', 'list'],
        ['globals', 'list'],
        ['tokens', 'list'],
        ['audit', 'list'],
        ['status'],
      ]) {
        expect((await lpa(command)).stdout, command.join(' ')).not.toMatch(/(?<![\w-])1\d{12}(?![\w-])/);
      }

      const preview = await json(['shares', 'redeem', '--code-file', '-'], `${share.code}\n`);
      expect(preview.items).toEqual([expect.objectContaining({ id, name: 'cli flow' })]);
      const imported = await json(['shares', 'import', '--ticket', preview.ticket, '--id', id]);
      expect(imported.items).toEqual([
        expect.objectContaining({ id: expect.not.stringMatching(id), name: 'cli flow' }),
      ]);

      expect(await lpa(['shares', 'revoke', share.id])).toMatchObject({ code: 0, stdout: `revoked ${share.id}\n` });
      const redeemRevoked = await lpa(['shares', 'redeem', '--code-file', '-'], {}, work, share.code);
      expect(redeemRevoked.code).not.toBe(0);
      expect(redeemRevoked.stderr).toMatch(/^error: shares\.\S+ \(HTTP \d+\): /);

      for (const flow of [imported.items[0].id, id])
        expect((await lpa(['flows', 'delete', flow])).stdout).toBe(`deleted ${flow}\n`);
      expect((await lpa(['flows', 'get', id])).code).toBe(7);
      const badJson = join(work, 'bad.json');
      writeFileSync(badJson, '{');
      const bad = await lpa(['flows', 'create', '--file', badJson]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^error: cli\.json_invalid: /);
    },
    LONG,
  );
});

describe('lpa files, sync, settings and membership', () => {
  it(
    'puts, lists and gets a file; a second put of the same name is a conflict',
    async () => {
      const local = join(work, 'data.bin');
      const bytes = Buffer.from([0, 1, 2, 250, 255]);
      writeFileSync(local, bytes);
      expect(await json(['files', 'put', local, '--name', 'cli-data.bin'])).toEqual({
        name: 'cli-data.bin',
        size_bytes: 5,
      });
      const again = await lpa(['files', 'put', local, '--name', 'cli-data.bin']);
      expect(again.code).toBe(8);
      expect(again.stderr).toMatch(/^error: files\.exists \(HTTP 409\)/);
      const listed = await json(['files', 'list']);
      expect(listed.items).toContainEqual({ name: 'cli-data.bin', size_bytes: 5 });
      expect((await lpa(['files', 'list'])).stdout).toMatch(/NAME\s+SIZE_BYTES\n(.*\n)*cli-data\.bin\s+5/);
      const out = join(work, 'copy.bin');
      expect((await lpa(['files', 'get', 'cli-data.bin', '--out', out])).stdout).toBe(`wrote ${out} (5 bytes)\n`);
      expect(readFileSync(out)).toEqual(bytes);
      expect((await lpa(['files', 'get', 'absent.bin'])).code).toBe(7);
    },
    LONG,
  );

  it(
    'shows the synchronizer status and the membership status (also under its former name, account)',
    async () => {
      expect(await json(['sync', 'status'])).toMatchObject({ running: false, follower_ids: [] });
      expect((await lpa(['sync', 'status'])).stdout).toContain('running: false');
      const unknown = await lpa(['sync', 'start', 'no-such-source', 'no-such-follower', '--delay-ms', '10-50']);
      expect(unknown.stderr).toContain('resource.not_found');
      expect((await lpa(['sync', 'stop'])).stderr).toContain('synchronizer.not_running');
      const badOption = await lpa(['sync', 'start', 'a', 'b', '--without', 'everything']);
      expect(badOption.code).toBe(2);
      expect(badOption.stderr).toContain('must be one of clicks');
      expect(await json(['membership', 'status'])).toMatchObject({ authenticated: false, account: null });
      expect(await json(['account', 'status'])).toMatchObject({ authenticated: false, account: null });
    },
    LONG,
  );

  it(
    'reads and changes the log and audit retention',
    async () => {
      const logs = await json(['settings', 'logs']);
      expect(logs).toEqual({ retention_days: expect.any(Number), kernel_retention_days: expect.any(Number) });
      expect(
        await json(['settings', 'logs', '--set', 'retention_days=20', '--set', 'kernel_retention_days=7']),
      ).toEqual({ retention_days: 20, kernel_retention_days: 7 });
      expect((await lpa(['settings', 'logs'])).stdout).toBe('retention_days: 20\nkernel_retention_days: 7\n');
      expect((await json(['settings', 'audit'])).retention_days).toEqual(expect.any(Number));
      expect(await json(['settings', 'audit', '--set', 'retention_days=400'])).toEqual({ retention_days: 400 });
      const outOfBounds = await lpa(['settings', 'audit', '--set', 'retention_days=1']);
      expect(outOfBounds.code).toBe(4);
      const unknown = await lpa(['settings', 'audit', '--set', 'days=1']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('expected field=n with field one of retention_days');
    },
    LONG,
  );
});
