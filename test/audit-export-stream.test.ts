import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXPORT_IDLE_MS, EXPORT_RETRY_AFTER_S, exportAudit, MAX_CONCURRENT_EXPORTS } from '../handlers/audit-export';
import { exportHeader, exportLine, exportTail } from '../storage/audit/export-format';
import type { AuditPage, AuditRecord, ExportFormat } from '../storage/audit/schema';
import { toBase64 } from '../src/shared/base64';
import { BASE_URL, TEST_ADMIN_TOKEN } from './support/constants';
import { call } from './support/api';
import { serviceWith } from './support/service';
import { inStore, sql } from './support/store';
import { exports } from 'cloudflare:workers';

const T = Date.UTC(2032, 0, 2, 3, 4, 5);
/** More entries than one store page, with details that escape, quote and take several UTF-8 bytes. */
const ENTRIES = 1234;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T);
  await call('/api/v1/audit');
  const [{ seq }] = (await sql<{ seq: number }>('SELECT max(seq) AS seq FROM audit_log')) as [{ seq: number }];
  await sql(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO audit_log (seq, id, ts, actor_type, actor_label, source, action, category, result, details, hash)
     SELECT ? + i, 'e-' || i, ?, 'system', 'Zoë, "the" ' || char(9) || 'system', 'system', 'audit.purge', 'system', 'ok',
       json_object('note', 'line' || char(10) || 'break, ' || substr('ÄÖü€😀', 1 + i % 5, i % 4), 'n', i), 'x' FROM n`,
    ENTRIES,
    seq,
    T,
  );
});

afterAll(() => {
  vi.useRealTimers();
});

/** The answer as the handler built it before it streamed: the whole file, then one JSON.stringify. */
async function builtInOne(format: ExportFormat): Promise<string> {
  const { records, head } = await inStore(async ({ store }) => {
    const all: AuditRecord[] = [];
    for (let after: number | null = 0; after !== null; ) {
      const page: AuditPage = await store.audit.list({}, { after_seq: after }, 1000);
      all.push(...page.items);
      after = page.next_seq;
    }
    return { records: all, head: format === 'jsonl' ? await store.audit.exportHead({}, all.at(-1)?.seq ?? 0) : null };
  });
  const file =
    exportHeader(format) + records.map((record) => exportLine(format, record)).join('') + exportTail(format, head);
  return JSON.stringify({
    file_name: `lpa-audit-20320102T030405Z.${format}`,
    count: records.length,
    content_base64: toBase64(new TextEncoder().encode(file)),
  });
}

const exportRequest = (format: ExportFormat) =>
  [
    `${BASE_URL}/api/v1/audit/export?format=${format}`,
    { headers: { host: new URL(BASE_URL).host, authorization: `Bearer ${TEST_ADMIN_TOKEN}` } },
  ] as const;

describe('the streamed export', () => {
  it.each(['jsonl', 'csv'] as const)('sends the very bytes of the file built in one piece (%s)', async (format) => {
    const res = await call(`/api/v1/audit/export?format=${format}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.json.count).toBeGreaterThan(ENTRIES);
    expect(res.text).toBe(await builtInOne(format));
  });

  it(`runs ${MAX_CONCURRENT_EXPORTS} at once; one more answers 429 audit.export_busy with Retry-After until one ends`, async () => {
    const service = serviceWith();
    // Each export holds the log as it was when it began: a refusal is audited, so expectations are taken then.
    const jsonlThen = await builtInOne('jsonl');
    const running = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => service.fetch(...exportRequest('jsonl'))),
    );
    expect(running.map((r) => r.status)).toEqual(running.map(() => 200));
    // Their bodies are not read yet: each still holds its slot.
    const busy = await service.fetch(...exportRequest('csv'));
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe(String(EXPORT_RETRY_AFTER_S));
    expect((await busy.json<{ error: unknown }>()).error).toEqual({
      code: 'audit.export_busy',
      message: expect.any(String),
      details: { max_concurrent: MAX_CONCURRENT_EXPORTS, retry_after_s: EXPORT_RETRY_AFTER_S },
    });
    // One read to the end frees its slot; one whose reader went away frees its slot too.
    expect(await running[0]!.text()).toBe(jsonlThen);
    const csvThen = await builtInOne('csv');
    const next = await service.fetch(...exportRequest('csv'));
    expect(next.status).toBe(200);
    expect((await service.fetch(...exportRequest('csv'))).status).toBe(429);
    await running[1]!.body!.cancel();
    const jsonlNow = await builtInOne('jsonl');
    const after = await service.fetch(...exportRequest('jsonl'));
    expect(after.status).toBe(200);
    expect(await next.text()).toBe(csvThen);
    expect(await after.text()).toBe(jsonlNow);
  });

  it(`frees the slot of a reader that takes nothing for a while (${EXPORT_IDLE_MS} ms in service), and cuts its answer`, async () => {
    // The service itself: its object's export slots are the ones these exports, made in the object, take.
    const service = exports.default as unknown as { fetch: (url: string, init: RequestInit) => Promise<Response> };
    const idleMs = 300;
    const stalled = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_EXPORTS }, () =>
        inStore(
          async ({ object }) =>
            (await exportAudit({ store: object.started.client, memory: object.memory }, {}, 'jsonl', T, idleMs))
              .body as ReadableStream<Uint8Array>,
        ),
      ),
    );
    expect((await service.fetch(...exportRequest('csv'))).status).toBe(429);
    // One reader takes a chunk and stops; the other takes nothing.
    const reader = stalled[0]!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, idleMs / 2));
    expect((await service.fetch(...exportRequest('csv'))).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const next = await service.fetch(...exportRequest('csv'));
    expect(next.status).toBe(200);
    await expect(reader.read()).rejects.toThrow(/took nothing/);
    await expect(new Response(stalled[1]).text()).rejects.toThrow(/took nothing/);
    expect(JSON.parse(await next.text()).count).toBeGreaterThan(ENTRIES);
  });
});
