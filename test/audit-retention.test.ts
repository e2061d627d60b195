import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hostClient } from '../src/host/port';
import { sealMac } from '../storage/audit/anchors';
import { SYSTEM_ACTOR } from '../storage/audit/entry';
import { call, tokenWith } from './support/api';
import { auditedWrite, DAY, runDaily, undoTamperingAfterEach, verify } from './support/audit';
import { LARGE_TIMEOUT_MS } from './support/automation';
import { inStore, sql } from './support/store';

const R0 = Date.UTC(2032, 0, 1);
const HOUR = 3_600_000;
const dayName = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const retention = async () => (await call('/api/v1/settings/audit')).json;

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});

afterAll(() => {
  vi.useRealTimers();
});

describe('retention', () => {
  let hashAtCut: string;

  it('starts at 365 days and counts every entry', async () => {
    vi.setSystemTime(R0 + 10 * HOUR);
    const res = await call('/api/v1/settings/audit');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ retention_days: 365, entries: 1, oldest_ts: R0 + 10 * HOUR });
    await auditedWrite(2);
    await auditedWrite(3);
    vi.setSystemTime(R0 + DAY + 10 * HOUR);
    await auditedWrite(4);
    await auditedWrite(5);
    expect(await retention()).toEqual({ retention_days: 365, entries: 5, oldest_ts: R0 + 10 * HOUR });
  });

  it('PUT changes it, and the change is audited', async () => {
    vi.setSystemTime(R0 + 40 * DAY + 10 * HOUR);
    const res = await call('/api/v1/settings/audit', { method: 'PUT', body: { retention_days: 30 } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ retention_days: 30 });
    const rows = await sql(
      'SELECT seq, actor_type, action, category, entity_type, entity_id, result, details FROM audit_log WHERE request_id = ?',
      res.headers.get('x-request-id')!,
    );
    expect(rows).toEqual([
      {
        seq: 6,
        actor_type: 'admin',
        action: 'settings.audit_write',
        category: 'account',
        entity_type: 'settings',
        entity_id: 'audit',
        result: 'ok',
        details: '{"retention_days":30,"previous":365}',
      },
    ]);
    expect(await retention()).toEqual({ retention_days: 30, entries: 6, oldest_ts: R0 + 10 * HOUR });
    hashAtCut = (await sql<{ hash: string }>('SELECT hash FROM audit_log WHERE seq = 5'))[0]!.hash;
  });

  it('the daily job deletes older entries, keeps the hash at the cut, and verify still passes', async () => {
    vi.setSystemTime(R0 + 41 * DAY + 5_000);
    const reports = await runDaily(Date.now());
    expect(reports).toEqual([
      { name: 'audit.seal', ok: true, result: { sealed: [dayName(R0 + 40 * DAY)] } },
      { name: 'audit.retention', ok: true, result: { deleted: 5, checkpoint_seq: 5 } },
    ]);
    const key = (await hostClient(env.HOST).keys.read('audit', false))!;
    expect(await sql('SELECT * FROM audit_checkpoint')).toEqual([
      { id: 1, seq: 5, hash: hashAtCut, mac: sealMac(key, { seq: 5, hash: hashAtCut }) },
    ]);
    expect((await sql<{ day: string }>('SELECT day FROM audit_anchor')).map((a) => a.day)).toEqual([
      dayName(R0 + 40 * DAY),
    ]);
    expect(
      await sql('SELECT seq, actor_type, source, action, entity_type, result, details FROM audit_log ORDER BY seq'),
    ).toEqual([
      {
        seq: 6,
        actor_type: 'admin',
        source: 'api',
        action: 'settings.audit_write',
        entity_type: 'settings',
        result: 'ok',
        details: '{"retention_days":30,"previous":365}',
      },
      {
        seq: 7,
        actor_type: 'system',
        source: 'system',
        action: 'audit.purge',
        entity_type: 'audit_log',
        result: 'ok',
        details: '{"deleted":5,"retention_days":30,"checkpoint_seq":5}',
      },
    ]);
    expect(await verify()).toEqual({
      ok: true,
      checked: 2,
      anchors: 1,
      first_bad_seq: null,
      missing_anchor: null,
      sealed_twice: null,
    });
    expect(await retention()).toEqual({ retention_days: 30, entries: 2, oldest_ts: R0 + 40 * DAY + 10 * HOUR });
  });

  it('a second run finds nothing more to delete', async () => {
    const reports = await runDaily(Date.now());
    expect(reports[1]).toEqual({ name: 'audit.retention', ok: true, result: { deleted: 0, checkpoint_seq: null } });
  });
});

describe('a tampered checkpoint', () => {
  undoTamperingAfterEach();

  it.each([
    ['its hash is changed', [`UPDATE audit_checkpoint SET hash = '${'1'.repeat(64)}'`], 6],
    ['its mac is changed', [`UPDATE audit_checkpoint SET mac = '${'1'.repeat(64)}'`], 6],
    ['it has no mac', ['UPDATE audit_checkpoint SET mac = NULL'], 6],
    ['it is deleted', ['DELETE FROM audit_checkpoint'], 1],
    [
      'it is moved past a deleted entry',
      [
        'UPDATE audit_checkpoint SET seq = 6, hash = (SELECT hash FROM audit_log WHERE seq = 6)',
        'DELETE FROM audit_log WHERE seq = 6',
      ],
      7,
    ],
  ])('is reported when %s', async (_what, statements, firstBad) => {
    for (const statement of statements) await sql(statement);
    expect(await verify()).toMatchObject({ ok: false, first_bad_seq: firstBad });
  });
});

describe('a large purge', () => {
  it(
    'deletes in chunks and the chain still verifies',
    async () => {
      vi.setSystemTime(R0 + 50 * DAY);
      // Called inside the Durable Object, so that the calls meet in its group commit rather than in 12 345 RPCs.
      const appended = await inStore(async ({ store }) => {
        await Promise.all(
          Array.from({ length: 12_345 }, (_, i) =>
            store.system.record(
              { actor: SYSTEM_ACTOR, source: 'system', request_id: null, action: 'service.start' },
              'ok',
              { details: { i } },
              null,
            ),
          ),
        );
        return store.settings.auditRetentionReport();
      });
      expect(appended.entries).toBe(2 + 12_345);
      vi.setSystemTime(R0 + 85 * DAY);
      const reports = await runDaily(Date.now());
      expect(reports[1]).toEqual({
        name: 'audit.retention',
        ok: true,
        result: { deleted: 2 + 12_345, checkpoint_seq: 7 + 12_345 },
      });
      expect(await verify()).toEqual({
        ok: true,
        checked: 1,
        anchors: 0,
        first_bad_seq: null,
        missing_anchor: null,
        sealed_twice: null,
      });
      expect(await retention()).toEqual({ retention_days: 30, entries: 1, oldest_ts: R0 + 85 * DAY });
    },
    LARGE_TIMEOUT_MS,
  );
});

describe('GET and PUT /api/v1/settings/audit bounds and scopes', () => {
  it.each([
    [{ retention_days: 29 }],
    [{ retention_days: 1096 }],
    [{ retention_days: '30' }],
    [{ retention_days: 30.5 }],
    [{ retention_days: null }],
    [{}],
    [{ retention_days: 30, extra: true }],
    [[30]],
  ])('PUT answers 400 for %j', async (body) => {
    const res = await call('/api/v1/settings/audit', { method: 'PUT', body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
  });

  it('PUT accepts 30 and 1095', async () => {
    for (const days of [1095, 30]) {
      const res = await call('/api/v1/settings/audit', { method: 'PUT', body: { retention_days: days } });
      expect([res.status, res.json]).toEqual([200, { retention_days: days }]);
    }
  });

  it('GET needs audit:read and PUT settings:write', async () => {
    const reader = await tokenWith(['audit:read']);
    expect((await call('/api/v1/settings/audit', { token: reader.token })).json).toMatchObject({ retention_days: 30 });
    const put = await call('/api/v1/settings/audit', {
      method: 'PUT',
      token: reader.token,
      body: { retention_days: 60 },
    });
    expect([put.status, put.json.error.code, put.json.error.details]).toEqual([
      403,
      'auth.scope_missing',
      { missing: ['settings:write'] },
    ]);
    const writer = await tokenWith(['settings:write']);
    const get = await call('/api/v1/settings/audit', { token: writer.token });
    expect([get.status, get.json.error.details]).toEqual([403, { missing: ['audit:read'] }]);
    expect((await retention()).retention_days).toBe(30);
  });
});
