import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamFile } from '../../src/shared/team-link';
import type { Run } from './cli-run';

/** `lpa team …` works on the data root only: no service runs here, and LPA_URL points nowhere. */
function lpa(args: string[], dataRoot: string, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), 'bin/lpa.mjs'), ...args],
      {
        env: {
          ...process.env,
          LPA_DATA_ROOT: dataRoot,
          LPA_URL: 'http://127.0.0.1:9',
          LPA_TOKEN: '',
          LPA_TEAM_URL: '',
        },
        cwd,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function machine() {
  const work = mkdtempSync(join(tmpdir(), 'lpa-cli-team-'));
  writeFileSync(join(work, 'team.token'), 'lpa_team_token\n', { mode: 0o600 });
  const root = join(work, 'data');
  return { work, root, file: join(root, 'team.json'), run: (args: string[]) => lpa(args, root, work) };
}

const URL = 'https://lpa.example.com/teams/acme';

describe('lpa team join and leave', () => {
  it('writes team.json (0600) with the URL and the absolute path of the token file, a valid TeamFile; leave removes it', async () => {
    const { work, file, run } = machine();
    const joined = await run(['team', 'join', URL, '--token-file', 'team.token', '--json']);
    expect(joined.code, joined.stderr).toBe(0);
    expect(JSON.parse(joined.stdout)).toMatchObject({
      team_file: file,
      url: URL,
      token_file: join(work, 'team.token'),
      next: expect.stringContaining('restart'),
    });
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(TeamFile.parse(JSON.parse(readFileSync(file, 'utf8')))).toEqual({
      url: URL,
      token_file: join(work, 'team.token'),
    });

    const again = await run(['team', 'join', URL, '--token-file', 'team.token', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr).error.code).toBe('cli.team_joined');

    const left = await run(['team', 'leave', '--json']);
    expect(left.code).toBe(0);
    expect(JSON.parse(left.stdout)).toMatchObject({ left: true });
    expect(existsSync(file)).toBe(false);
    expect(JSON.parse((await run(['team', 'leave', '--json'])).stdout)).toMatchObject({ left: false });
  });

  it('refuses, writing nothing, a URL that is not a team, an unreadable or empty token file, and an Access id without its secret', async () => {
    const { work, file, run } = machine();
    writeFileSync(join(work, 'empty.token'), '');
    const cases: [string[], number, string][] = [
      [['http://lpa.example.com/teams/acme', '--token-file', 'team.token'], 2, 'https://<host>/teams/<team_id>'],
      [['https://lpa.example.com/api/v1', '--token-file', 'team.token'], 2, 'https://<host>/teams/<team_id>'],
      [['https://lpa.example.com/teams/Acme!', '--token-file', 'team.token'], 2, 'https://<host>/teams/<team_id>'],
      [[URL, '--token-file', 'missing.token'], 1, 'cli.file_unreadable'],
      [[URL, '--token-file', 'empty.token'], 1, 'cli.value_missing'],
      [[URL, '--token-file', 'team.token', '--access-client-id', 'id'], 2, '--access-client-secret-file'],
    ];
    for (const [args, code, said] of cases) {
      const answer = await run(['team', 'join', ...args]);
      expect(answer.code, args.join(' ')).toBe(code);
      expect(answer.stderr).toContain(said);
      expect(answer.stdout).toBe('');
      expect(existsSync(file)).toBe(false);
    }
  });
});

describe('lpa team push', () => {
  it("reads the machine's store from LPA_URL with LPA_TOKEN and sends each page to the team with the team token and the Access service token's headers", async () => {
    const { createServer } = await import('node:http');
    const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];
    const checkpoint = {
      store_id: 'solo-store',
      seq: 7,
      hash: 'f'.repeat(64),
      ts: 1,
      key_id: 'e'.repeat(64),
      signature: 'c2ln',
    };
    const profile = {
      kind: 'profiles',
      id: 'p-1',
      name: 'one',
      group: null,
      tags: [],
      pinned: false,
      notes: null,
      created_at: 1,
      updated_at: 1,
    };
    // One server plays both: the machine's service (the export) and the team (its import, which refuses: the team is not empty).
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
        response.setHeader('content-type', 'application/json');
        if (request.url!.startsWith('/api/v1/team/export')) {
          const kind = new URLSearchParams(request.url!.split('?')[1]).get('kind');
          response.end(JSON.stringify({ checkpoint, items: kind === 'profiles' ? [profile] : [], next_offset: null }));
        } else {
          response.statusCode = 409;
          response.end(
            JSON.stringify({
              error: {
                code: 'team.not_empty',
                message: 'not empty',
                details: { store_id: 'solo-store', pushed_from: null },
              },
              request_id: 'r',
            }),
          );
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const { work, root } = machine();
      const run = await new Promise<Run>((resolve) => {
        execFile(
          process.execPath,
          [join(process.cwd(), 'bin/lpa.mjs'), 'team', 'push', '--json'],
          {
            env: {
              ...process.env,
              LPA_DATA_ROOT: root,
              LPA_URL: `http://127.0.0.1:${port}`,
              LPA_TOKEN: 'local-admin-token',
              LPA_TEAM_URL: `http://127.0.0.1:${port}/teams/acme`,
              LPA_TEAM_TOKEN_FILE: join(work, 'team.token'),
              LPA_TEAM_ACCESS_CLIENT_ID: 'abcdefgh12.access',
              LPA_TEAM_ACCESS_CLIENT_SECRET: 'access-secret',
            },
            cwd: work,
          },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(run.code).toBe(8);
      expect(run.stdout).toBe('');
      expect(JSON.parse(run.stderr).error.code).toBe('team.not_empty');
      expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
        'GET /api/v1/team/export?kind=profiles&offset=0',
        'POST /teams/acme/api/v1/import',
      ]);
      expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer local-admin-token' });
      expect(seen[0]!.headers['cf-access-client-id']).toBeUndefined();
      expect(seen[1]!.headers).toMatchObject({
        authorization: 'Bearer lpa_team_token',
        'cf-access-client-id': 'abcdefgh12.access',
        'cf-access-client-secret': 'access-secret',
        'x-lpa-client': 'cli',
      });
      expect(JSON.parse(seen[1]!.body)).toEqual({ source: checkpoint, items: [profile] });
    } finally {
      server.close();
    }
  });
});
