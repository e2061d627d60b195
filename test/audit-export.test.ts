import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chainHash } from '../storage/audit/chain';
import { exportLine } from '../storage/audit/export-format';
import type { ExportHead } from '../storage/audit/schema';
import { verifyJsonlExport } from '../storage/audit/verify-export';
import { call, tokenWith } from './support/api';
import { auditedWrite, publicKey, storeId } from './support/audit';
import { independentVerify } from './support/independent-verify.mjs';
import { sql } from './support/store';
import { decodeBase64Text, parseCsv } from './support/csv';

const T = Date.UTC(2031, 6, 1, 8);
const WRONG_TOKEN = 'lpa_never-valid-secret-text-0123456789';
const HEADER = [
  'seq',
  'id',
  'ts',
  'actor_type',
  'actor_id',
  'actor_label',
  'source',
  'action',
  'entity_type',
  'entity_id',
  'entity_no',
  'result',
  'error_code',
  'details',
  'request_id',
  'hash',
  'prev_hash',
];

let issued: { id: string; token: string; name: string };

const exported = async (query: string) => {
  const res = await call(`/api/v1/audit/export?${query}`);
  return { ...res, content: res.status === 200 ? decodeBase64Text(res.json.content_base64) : '' };
};
/** A value as its CSV cell reads: a cell that would start a formula starts with `'`. */
const asCsv = (v: unknown) => {
  const text = v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
};
/** The entry lines of a JSONL file: every line but the signed head that ends it. */
const jsonl = (content: string) =>
  content
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((line) => !('head' in line));
const headOf = (content: string) => (JSON.parse(content.trimEnd().split('\n').at(-1)!) as { head: ExportHead }).head;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T);
  issued = await tokenWith(['audit:read'], 'Export, "quoted" token');
  await call('/api/v1/audit', { token: WRONG_TOKEN });
  for (let i = 0; i < 5; i++) await auditedWrite(20 + i);
});

afterAll(() => {
  vi.useRealTimers();
});

describe('GET /api/v1/audit/export', () => {
  it('exports JSONL oldest first, each line an entry with its hash and prev_hash, verifiable offline', async () => {
    const res = await exported('format=jsonl');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['file_name', 'count', 'content_base64']);
    expect(res.json.file_name).toBe('lpa-audit-20310701T080000Z.jsonl');
    const lines = jsonl(res.content);
    const rows = await sql<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq');
    expect(res.json.count).toBe(rows.length);
    expect(lines.map((l) => [l.seq, l.hash])).toEqual(rows.map((r) => [r.seq, r.hash]));
    expect(lines[0]!.prev_hash).toBe('0'.repeat(64));
    expect(lines.slice(1).map((l) => l.prev_hash)).toEqual(rows.slice(0, -1).map((r) => r.hash));
    const listed = (await call('/api/v1/audit?limit=1000')).json.items.reverse();
    expect(lines.map(({ hash: _h, prev_hash: _p, category: _c, v: _v, anchor: _a, ...entry }) => entry)).toEqual(
      listed,
    );
    // The hashed fields of form 2: the spec's, the category and the form.
    expect(lines.map((l) => [l.category, l.v])).toEqual(
      (await sql('SELECT category, v FROM audit_log ORDER BY seq')).map((r) => [r.category, r.v]),
    );
    expect(verifyJsonlExport(res.content)).toEqual({
      ok: true,
      checked: rows.length,
      first_bad_seq: null,
      first_bad_line: null,
      reason: null,
      first_seq: 1,
      last_seq: rows.length,
      gaps: 0,
      anchors: null,
      missing_anchor: null,
      checkpoint_seq: null,
      signed_head: null,
    });
    // The file ends with the head the store signed over its first and last entry.
    const key = await publicKey();
    expect(headOf(res.content)).toEqual({
      first_seq: 1,
      seq: rows.length,
      hash: rows.at(-1)!.hash,
      ts: T,
      store_id: await storeId(),
      key_id: key.key_id,
      key_start_seq: 1,
      signature: expect.any(String),
      refused: null,
    });
    expect(verifyJsonlExport(res.content, { publicKeyPem: key.public_key_pem })).toMatchObject({
      ok: true,
      signed_head: true,
      anchors: 0,
    });
    expect(independentVerify(res.content, key.public_key_pem)).toBeNull();
  });

  it('exports RFC 4180 CSV with a header row', async () => {
    const res = await exported('format=csv');
    expect(res.status).toBe(200);
    expect(res.json.file_name).toBe('lpa-audit-20310701T080000Z.csv');
    expect(res.content.endsWith('\r\n')).toBe(true);
    const [header, ...records] = parseCsv(res.content);
    expect(header).toEqual(HEADER);
    expect(records).toHaveLength(res.json.count);
    const lines = jsonl((await exported('format=jsonl')).content);
    expect(records).toEqual(lines.map((line) => HEADER.map((column) => asCsv(line[column]))));
    expect(res.content).toContain('"{""name"":""Export, \\""quoted\\"" token""');
  });

  it('applies the filters and verifies a filtered file across its gaps', async () => {
    const tokens = await exported('format=jsonl&action=tokens.create');
    expect(tokens.json.count).toBe(1);
    expect(jsonl(tokens.content).map((l) => l.entity_id)).toEqual([issued.id]);
    const updates = await exported('format=jsonl&action=settings.logs_write&result=ok');
    expect(updates.json.count).toBe(5);
    expect(verifyJsonlExport(updates.content)).toMatchObject({ ok: true, checked: 5, gaps: 0 });
    const oks = await exported('format=jsonl&result=ok');
    expect(verifyJsonlExport(oks.content)).toMatchObject({ ok: true, gaps: 1 });
    // With the key a gap is not accepted: the links across it are unchecked.
    const key = await publicKey();
    expect(verifyJsonlExport(oks.content, { publicKeyPem: key.public_key_pem })).toMatchObject({
      ok: false,
      gaps: 1,
      signed_head: true,
      reason: expect.stringContaining('seqs jump'),
    });
    expect(independentVerify(oks.content, key.public_key_pem)).toEqual({ seq: expect.any(Number) });
    expect(verifyJsonlExport(updates.content, { publicKeyPem: key.public_key_pem })).toMatchObject({
      ok: true,
      signed_head: true,
    });
    const none = await exported('format=csv&category=team');
    expect(none.json.count).toBe(0);
    expect(none.content).toBe(`${HEADER.join(',')}\r\n`);
    const empty = await exported('format=jsonl&category=team');
    expect(empty.json.count).toBe(0);
    expect(headOf(empty.content)).toMatchObject({
      first_seq: null,
      seq: null,
      hash: null,
      signature: expect.any(String),
    });
    expect(verifyJsonlExport(empty.content, { publicKeyPem: key.public_key_pem })).toMatchObject({
      ok: true,
      checked: 0,
      signed_head: true,
    });
  });

  it('the offline check finds an edited, re-hashed, reordered or broken line', async () => {
    const content = (await exported('format=jsonl')).content;
    const lines = content.split('\n').filter(Boolean);
    const edit = (index: number, change: (entry: Record<string, unknown>) => void) =>
      lines
        .map((line, i) => {
          if (i !== index) return line;
          const entry = JSON.parse(line);
          change(entry);
          return JSON.stringify(entry);
        })
        .join('\n');
    expect(verifyJsonlExport(edit(3, (e) => (e.actor_label = 'x')))).toMatchObject({
      ok: false,
      first_bad_seq: 4,
      first_bad_line: 4,
      reason: 'hash does not match the entry',
    });
    expect(verifyJsonlExport(edit(3, (e) => (e.prev_hash = 'f'.repeat(64))))).toMatchObject({
      ok: false,
      first_bad_seq: 4,
    });
    expect(verifyJsonlExport(edit(0, (e) => (e.prev_hash = 'f'.repeat(64))))).toMatchObject({
      ok: false,
      first_bad_seq: 1,
    });
    const rehashed = edit(3, (e) => {
      e.actor_label = 'x';
      const { hash: _h, prev_hash, ...entry } = e;
      e.hash = chainHash(prev_hash as string, entry as never);
    });
    expect(verifyJsonlExport(rehashed)).toMatchObject({
      ok: false,
      first_bad_seq: 5,
      reason: 'prev_hash is not the previous hash',
    });
    const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n');
    expect(verifyJsonlExport(swapped)).toMatchObject({
      ok: false,
      first_bad_seq: 2,
      first_bad_line: 3,
      reason: 'seq does not ascend',
    });
    expect(verifyJsonlExport([lines[0], 'not json', ...lines.slice(1)].join('\n'))).toMatchObject({
      ok: false,
      first_bad_seq: null,
      first_bad_line: 2,
      reason: 'not JSON',
    });
  });

  it.each([
    ['', 'format'],
    ['format=xml', 'format'],
    ['format=jsonl&limit=5', ''],
    ['format=csv&result=maybe', 'result'],
    ['format=csv&from=3&to=2', 'from'],
    [`format=csv&search=${'q'.repeat(201)}`, 'search'],
    ['format=csv&entity_no=0', 'entity_no'],
  ])('answers 400 for %s', async (query, field) => {
    const res = await call(`/api/v1/audit/export?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    if (field) expect(res.json.error.details.issues.map((i: { path: string[] }) => i.path[0])).toContain(field);
  });

  it('needs audit:read', async () => {
    const limited = await tokenWith(['settings:write']);
    const res = await call('/api/v1/audit/export?format=csv', { token: limited.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 'auth.scope_missing', details: { missing: ['audit:read'] } });
    expect((await call('/api/v1/audit/export?format=csv', { token: issued.token })).status).toBe(200);
  });

  it('holds no secret text: neither a token nor a refused token', async () => {
    const stored = JSON.stringify(await sql('SELECT * FROM audit_log'));
    const files = (await exported('format=jsonl')).content + (await exported('format=csv')).content;
    for (const secret of [issued.token, WRONG_TOKEN, issued.token.slice(4)]) {
      expect(stored).not.toContain(secret);
      expect(files).not.toContain(secret);
    }
    expect(stored).toContain(issued.id);
  });

  it('neutralises cells a spreadsheet would run as a formula; JSONL keeps the entry as it is and verifies', async () => {
    const names = ['=HYPERLINK("evil.example","open")', '+1+cmd', '-2+3', '@SUM(A1)', 'plain=name.txt'];
    for (const name of names) {
      const res = await call('/api/v1/automation/files', { method: 'POST', body: { name, base64: '' } });
      expect(res.status).toBe(200);
    }
    const csv = await exported('format=csv&action=files.write');
    const records = parseCsv(csv.content).slice(1);
    expect(records.map((record) => record[HEADER.indexOf('entity_id')])).toEqual([
      '\'=HYPERLINK("evil.example","open")',
      "'+1+cmd",
      "'-2+3",
      "'@SUM(A1)",
      'plain=name.txt',
    ]);
    expect(csv.content).toContain(`"'=HYPERLINK(""evil.example"",""open"")"`);
    // No cell of the file starts with a formula character, quoted or not.
    expect(csv.content.split(/,|\r\n/).filter((cell) => /^"?[=+\-@\t\r]/.test(cell))).toEqual([]);
    const lines = jsonl((await exported('format=jsonl&action=files.write')).content);
    expect(lines.map((line) => line.entity_id)).toEqual(names);
    expect(verifyJsonlExport((await exported('format=jsonl')).content)).toMatchObject({ ok: true, gaps: 0 });
  });

  it('neutralises a cell that starts with a tab or a carriage return as well', () => {
    const record = {
      seq: 1,
      id: 'x',
      ts: 0,
      actor_type: 'system',
      actor_id: null,
      actor_label: '\tlabel',
      source: 'system',
      action: 'service.start',
      entity_type: null,
      entity_id: '\r=1+1',
      entity_no: null,
      result: 'ok',
      error_code: null,
      details: {},
      request_id: null,
      hash: 'h',
      prev_hash: 'p',
    } as const;
    const [cells] = parseCsv(exportLine('csv', record as never));
    expect(cells![HEADER.indexOf('actor_label')]).toBe("'\tlabel");
    expect(cells![HEADER.indexOf('entity_id')]).toBe("'\r=1+1");
  });
});
