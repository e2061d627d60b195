import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { HostPort } from '../src/host/port';
import { call } from './support/api';
import { BASE_URL, TEST_ADMIN_TOKEN } from './support/constants';
import { DAY_MS } from '../src/shared/time';
import {
  logLineWith,
  plant,
  plantSymlink,
  privateHost,
  readDataFile,
  removePath,
  secondsAgo,
  todaysLog,
} from './support/log-files';
import { serviceWith } from './support/service';
import { inStore } from './support/store';

const tag = `ret-${crypto.randomUUID().slice(0, 8)}`;
const ISO = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;

describe('the daily log cleanup', () => {
  it('deletes exactly the files older than their retention, and writes what it did to the jobs log', async () => {
    const put = await call('/api/v1/settings/logs', {
      method: 'PUT',
      body: { retention_days: 10, kernel_retention_days: 3 },
    });
    expect(put.json).toEqual({ retention_days: 10, kernel_retention_days: 3 });
    const old = [
      ['api', 11],
      ['core', 11],
      ['jobs', 11],
      ['kernel', 4],
      ['relay', 11],
    ] as const;
    // Kept: younger than their retention; a program log as old as a deleted kernel log; not log files; a link.
    const kept = [
      ['api', 9],
      ['core', 4],
      ['jobs', 9],
      ['kernel', 2],
      ['relay', 9],
    ] as const;
    const name = (stream: string, age: number) => `${stream}/${tag}-${age}d.log`;
    for (const [stream, age] of [...old, ...kept])
      await plant(`logs/${name(stream, age)}`, `${stream} ${age}\n`, { mtime: secondsAgo(age * DAY_MS) });
    await plant(`logs/relay/${tag}-old.txt`, 'not a log file\n', { mtime: secondsAgo(40 * DAY_MS) });
    await plant(`${tag}-outside.log`, 'outside\n', { mtime: secondsAgo(40 * DAY_MS) });
    await plantSymlink(`logs/api/${tag}-link.log`, `../../${tag}-outside.log`);

    const reports = await inStore(({ instance }) => instance.runDaily());
    const report = reports.find((r) => r.name === 'logs.retention');
    expect(report).toEqual({
      name: 'logs.retention',
      ok: true,
      result: {
        retention_days: 10,
        kernel_retention_days: 3,
        removed: expect.any(Array),
        removed_bytes: expect.any(Number),
        failed: [],
      },
    });
    const removed = (report!.result.removed as string[]).filter((file) => file.includes(tag));
    expect(removed).toEqual(old.map(([stream, age]) => name(stream, age)));

    const listed = (await call('/api/v1/system/logs')).json.items
      .filter((item: { file: string }) => item.file.includes(tag))
      .map((item: { stream: string; file: string }) => `${item.stream}/${item.file}`);
    expect(listed).toEqual(kept.map(([stream, age]) => name(stream, age)));
    expect((await readDataFile(`logs/relay/${tag}-old.txt`)).exists).toBe(true);
    expect((await readDataFile(`logs/api/${tag}-link.log`)).text).toBe('outside\n');

    const line = await logLineWith(todaysLog('jobs'), name('api', 11));
    const match = new RegExp(
      `^${ISO} INFO job logs\\.retention done retention_days=10 kernel_retention_days=3 removed=(\\S+) removed_bytes=\\d+ failed=\\[\\]$`,
    ).exec(line);
    expect(match, line).not.toBeNull();
    expect(match![1]!.split(',').filter((file) => file.includes(tag))).toEqual(removed);
    expect(await logLineWith(todaysLog('jobs'), 'daily run finished')).toMatch(
      new RegExp(`^${ISO} (INFO|WARN) daily run finished jobs=\\d+ failed=\\d+ duration_ms=\\d+$`),
    );
  });
});

describe('the core log', () => {
  it('records the start of the store with its version, migrations and vault', async () => {
    const { store_id } = (await call('/api/v1/system/status')).json;
    const line = await logLineWith(todaysLog('core'), `store_id=${store_id}`);
    expect(line).toMatch(
      new RegExp(
        `^${ISO} INFO store opened store_id=${store_id} db_version=\\d+ migrations_applied=\\d+(,\\d+)* vault=unlocked$`,
      ),
    );
  });
});

/**
 * The service over a data root of the test's own (through the real host server), so that broken log
 * folders are seen by no other test file.
 */
function serviceOver(root: string, host: HostPort) {
  const service = serviceWith({ config: { dataRoot: `${env.LPA_DATA_ROOT}/${root}` }, host });
  return async (path: string) => {
    const headers = { host: new URL(BASE_URL).host, authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const res = await service.fetch(`${BASE_URL}${path}`, { headers });
    return { status: res.status, json: JSON.parse(await res.text()) };
  };
}

describe('log folders that cannot be used', () => {
  it('are a warning of core status, and every other folder keeps working', async () => {
    const root = `${tag}-not-folder`;
    const host = privateHost(root);
    const get = serviceOver(root, host);
    expect((await get('/api/v1/system/status')).json).toMatchObject({ mode: 'normal', reason: null, warnings: [] });

    await removePath(`${root}/logs/relay`);
    await plant(`${root}/logs/relay`, 'a file where a folder belongs\n');
    await plant(`${root}/logs/kernel/k.log`, 'kernel\n');
    const warning = `log folder ${env.LPA_DATA_ROOT}/${root}/logs/relay is not a folder`;
    const status = await get('/api/v1/system/status');
    expect(status.json).toMatchObject({
      mode: 'degraded',
      reason: warning,
      warnings: [warning],
      data_root: `${env.LPA_DATA_ROOT}/${root}`,
    });
    const listing = await get('/api/v1/system/logs');
    expect(listing.json.items.map((item: { stream: string; file: string }) => `${item.stream}/${item.file}`)).toContain(
      'kernel/k.log',
    );
    expect((await get('/api/v1/system/logs/relay/relay.log')).json.error.code).toBe('resource.not_found');

    // Once the file is gone, the check makes the folder again.
    await removePath(`${root}/logs/relay`);
    expect((await get('/api/v1/system/status')).json).toMatchObject({ mode: 'normal', reason: null, warnings: [] });
  });

  it('a stream folder that is a link is neither read, listed, cleaned nor written', async () => {
    const root = `${tag}-linked`;
    const host = privateHost(root);
    const get = serviceOver(root, host);
    await get('/api/v1/system/status');
    await plant(`${root}/elsewhere/x.log`, 'TOP SECRET\n', { mtime: secondsAgo(400 * DAY_MS) });
    for (const stream of ['relay', 'api']) {
      await removePath(`${root}/logs/${stream}`);
      await plantSymlink(`${root}/logs/${stream}`, '../elsewhere');
    }

    const warnings = ['api', 'relay'].map(
      (stream) => `log folder ${env.LPA_DATA_ROOT}/${root}/logs/${stream} is a link, not a folder`,
    );
    expect((await get('/api/v1/system/status')).json).toMatchObject({ mode: 'degraded', warnings });
    expect((await get('/api/v1/system/logs')).json).toEqual({ items: [] });
    const res = await get('/api/v1/system/logs/relay/x.log');
    expect(res.json.error.code).toBe('resource.not_found');
    expect(JSON.stringify(res.json)).not.toContain('TOP SECRET');

    const cleaned = await host.logs.cleanup({ core: 1, api: 1, jobs: 1, kernel: 1, relay: 1 });
    expect(cleaned).toEqual({ removed: [], failed: [] });
    await expect(
      host.logs.append('api', [{ ts: Date.now(), level: 'info', message: 'through a link' }]),
    ).rejects.toThrow(/HTTP 500/);
    expect((await readDataFile(`${root}/elsewhere/x.log`)).text).toBe('TOP SECRET\n');
    expect((await readDataFile(`${root}/elsewhere/api-${new Date().toISOString().slice(0, 10)}.log`)).exists).toBe(
      false,
    );
  });
});
