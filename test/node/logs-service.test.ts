import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { raw, startService, useService, RUNTIMES } from './service';

const today = () => new Date().toISOString().slice(0, 10);

/** A line of a log file once it is there: the service writes it after it answers. */
async function lineWith(path: string, needle: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const line = existsSync(path)
      ? readFileSync(path, 'utf8')
          .split('\n')
          .find((l) => l.includes(needle))
      : undefined;
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no line with ${needle} in ${path}`);
}

describe.each(RUNTIMES)('log files of the service on %s', (runtime) => {
  const svc = useService(runtime);

  it('writes the api and core logs as private files under the data root, and serves them', async () => {
    const answer = await raw(svc.current.port, '/api/v1/version?password=hunter2-on-the-wire', { headers: svc.auth() });
    expect(answer.status).toBe(400);
    const requestId = answer.headers['x-request-id'] as string;
    const apiLog = join(svc.current.dataRoot, 'logs', 'api', `api-${today()}.log`);
    const line = await lineWith(apiLog, requestId);
    expect(line).toMatch(
      new RegExp(
        `^\\S+Z INFO GET /api/v1/version\\?password=\\[redacted\\] status=400 duration_ms=\\d+ request_id=${requestId} actor=admin actor_id=- ip=127\\.0\\.0\\.1$`,
      ),
    );
    expect(readFileSync(apiLog, 'utf8')).not.toContain('hunter2');
    expect(readFileSync(apiLog, 'utf8')).not.toContain(svc.current.token);
    expect(statSync(apiLog).mode & 0o777).toBe(0o600);
    expect(statSync(join(svc.current.dataRoot, 'logs', 'api')).mode & 0o777).toBe(0o700);
    expect(await lineWith(join(svc.current.dataRoot, 'logs', 'core', `core-${today()}.log`), 'store opened')).toMatch(
      / INFO store opened store_id=\S+ db_version=\d+ migrations_applied=\S+ vault=unlocked$/,
    );

    const listing = await raw(svc.current.port, '/api/v1/system/logs', { headers: svc.auth() });
    expect(listing.json.items).toContainEqual({
      stream: 'api',
      file: `api-${today()}.log`,
      size: expect.any(Number),
      modified_at: expect.any(Number),
    });
    const excerpt = await raw(svc.current.port, `/api/v1/system/logs/api/api-${today()}.log`, { headers: svc.auth() });
    expect(excerpt.status).toBe(200);
    expect(excerpt.json.text).toContain(`request_id=${requestId}`);
    const status = await raw(svc.current.port, '/api/v1/system/status', { headers: svc.auth() });
    expect(status.json.warnings).toEqual([]);
  });

  // Under Deno this holds only with every permission (`-A`, as `npm run start:deno` runs it).
  it('neither lists nor serves a log name that is a link to a file outside the data root', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'lpa-outside-')), 'secret.log');
    writeFileSync(outside, 'outside-the-data-root\n');
    symlinkSync(outside, join(svc.current.dataRoot, 'logs', 'core', 'linked.log'));
    const excerpt = await raw(svc.current.port, '/api/v1/system/logs/core/linked.log', { headers: svc.auth() });
    expect(excerpt.status).toBe(404);
    expect(excerpt.json.error.code).toBe('resource.not_found');
    const listing = await raw(svc.current.port, '/api/v1/system/logs', { headers: svc.auth() });
    expect(listing.json.items.map((item: { file: string }) => item.file)).not.toContain('linked.log');
  });
});

describe('the log flush of the service on workerd', () => {
  const svc = useService('workerd');

  it('is no path of the HTTP port: a rebinding Host gets 421, the admin token 404 as any unknown path, and guessing a token there is throttled', async () => {
    const post = (path: string, headers: Record<string, string>) =>
      raw(svc.current.port, path, { method: 'POST', headers });
    const rebinding = await post('/_lpa/flush-logs', { host: 'attacker.example', ...svc.auth() });
    const rebindingElsewhere = await post('/_lpa/no-such-path', { host: 'attacker.example', ...svc.auth() });
    expect([rebinding.status, rebinding.json.error.code]).toEqual([
      rebindingElsewhere.status,
      rebindingElsewhere.json.error.code,
    ]);
    expect(rebinding.json.error.code).toBe('request.host_forbidden');

    const withAdmin = await post('/_lpa/flush-logs', svc.auth());
    expect(withAdmin.status).toBe(404);
    expect(withAdmin.json.error.code).toBe('route.not_found');

    const guesses: number[] = [];
    for (let n = 0; n < 25; n++)
      guesses.push(
        (await post('/_lpa/flush-logs', { authorization: `Bearer lpa_guess-${n}-${'x'.repeat(24)}` })).status,
      );
    expect(guesses.slice(0, 19).every((status) => status === 401)).toBe(true);
    expect(guesses.slice(20)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe.each(RUNTIMES)('the api log of the service on %s, stopped at once', (runtime) => {
  it('holds one line per request, in order, when SIGTERM comes right after the last answer', async () => {
    const service = await startService(runtime);
    const requestIds: string[] = [];
    try {
      for (let n = 0; n < 40; n++) {
        const answer = await raw(service.port, n % 2 === 0 ? '/status' : '/api/v1/version', {
          headers: { authorization: `Bearer ${service.token}` },
        });
        requestIds.push(answer.headers['x-request-id'] as string);
      }
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
    expect(service.output()).not.toContain('a stop step failed');
    const apiLog = join(service.dataRoot, 'logs', 'api', `api-${today()}.log`);
    // The launcher's own readiness requests come first; ours are the last 40 lines, in the order sent.
    const logged = readFileSync(apiLog, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => / request_id=(\S+)/.exec(line)?.[1]);
    expect(logged.slice(-40)).toEqual(requestIds);
    expect(logged.filter((id) => requestIds.includes(id!))).toHaveLength(40);
  });
});

describe.each(RUNTIMES)('the service on %s, stopped by Ctrl-C in its terminal', (runtime) => {
  it('keeps every api line when SIGINT reaches the whole process group, and prints no stack trace', async () => {
    const service = await startService(runtime, undefined, {}, { ownGroup: true });
    const requestIds: string[] = [];
    for (let n = 0; n < 50; n++) {
      requestIds.push(
        (await raw(service.port, '/api/v1/version', { headers: { authorization: `Bearer ${service.token}` } })).headers[
          'x-request-id'
        ] as string,
      );
    }
    const exited = new Promise<number | null>((resolve) => service.process.once('exit', (code) => resolve(code)));
    // What a terminal does on Ctrl-C: the signal goes to every process of the foreground group.
    process.kill(-service.process.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    const logged = readFileSync(join(service.dataRoot, 'logs', 'api', `api-${today()}.log`), 'utf8');
    expect(requestIds.filter((id) => !logged.includes(`request_id=${id}`))).toEqual([]);
    expect(service.output()).not.toMatch(/stop step failed|\n\s+at /);
  });
});

describe.each(RUNTIMES)('a custom admin token inside other text on %s', (runtime) => {
  it('is kept out of the audit log and the api log, percent-encoded or glued to other characters', async () => {
    const admin = 'Custom-Admin.Token~42';
    const svc = await startService(runtime, undefined, { LPA_ADMIN_TOKEN: admin });
    try {
      for (const path of [
        `/api/v1/x/${admin}.json`,
        `/api/v1/x-${admin}`,
        `/api/v1/${admin}%2F`,
        `/api/v1/${encodeURIComponent(admin).replace(/-/g, '%2D')}`,
      ]) {
        expect((await raw(svc.port, path)).status).toBe(401);
      }
      const audit = await raw(svc.port, '/api/v1/audit?action=auth.denied&limit=100', {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(audit.json.items.length).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(audit.json)).not.toContain(admin);
    } finally {
      await svc.stop();
    }
    const logs = join(svc.dataRoot, 'logs', 'api');
    const text = readdirSync(logs)
      .map((file) => readFileSync(join(logs, file), 'utf8'))
      .join('');
    expect(text).toContain('/api/v1/x/');
    expect(text).not.toContain(admin);
  });
});
