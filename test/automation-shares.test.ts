import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import type { ImportedFlow, PreviewItem, Share, ShareWithCode } from '../storage/shares/schema';
import { parseShareCode } from '../storage/shares/share-code';
import { Vault } from '../storage/vault';
import { call } from './support/api';
import { createFlow, expectError, LARGE_TIMEOUT_MS } from './support/automation';
import { auditOf, tablesHolding } from './support/automation-store';
import { inStore } from './support/store';

const SHARES = '/api/v1/automation/shares';
const createShare = (body: unknown) => call(SHARES, { method: 'POST', body });
const redeem = (code: unknown) => call(`${SHARES}/redeem`, { method: 'POST', body: { code } });
const importItems = (ticket: string, ids: string[]) =>
  call(`${SHARES}/import`, { method: 'POST', body: { ticket, ids } });

/** A share of one fresh flow, answered as created. */
async function shareOf(options: { max_uses?: number; include_secrets?: boolean; secret?: string } = {}) {
  const flow = await createFlow({
    name: `shared-${crypto.randomUUID()}`,
    steps: [{ type: 'wait', ms: 1 }],
    values: [{ name: 'token', value: options.secret ?? 'S', protected: true }],
  });
  const res = await createShare({
    ids: [flow],
    name: 'one flow',
    expires_in_minutes: 60,
    max_uses: options.max_uses ?? 5,
    include_secrets: options.include_secrets,
  });
  if (res.status !== 200) throw new Error(res.text);
  return { flow, share: res.json as ShareWithCode };
}

/** Opens the stored bundle with the key of the code, as only a holder of the code can. */
async function storedBundle(code: string): Promise<Uint8Array> {
  const { id, key } = parseShareCode(code)!;
  const sealed = await inStore(({ sql }) =>
    sql
      .exec<{ data: string }>('SELECT data FROM automation_chunks WHERE owner = ? ORDER BY seq', `share:${id}`)
      .toArray()
      .map((r) => r.data)
      .join(''),
  );
  return Vault.unlocked(key).openBytes(sealed, `share:${id}:bundle`);
}

describe('creating shares', () => {
  it.each([
    ['no ids', { name: 'n', expires_in_minutes: 1, max_uses: 1 }],
    ['an empty id list', { ids: [], name: 'n', expires_in_minutes: 1, max_uses: 1 }],
    [
      '1001 ids',
      { ids: Array.from({ length: 1001 }, (_, i) => `id-${i}`), name: 'n', expires_in_minutes: 1, max_uses: 1 },
    ],
    ['an id twice', { ids: ['a', 'a'], name: 'n', expires_in_minutes: 1, max_uses: 1 }],
    ['an empty id', { ids: [''], name: 'n', expires_in_minutes: 1, max_uses: 1 }],
    ['an id of 65 characters', { ids: ['i'.repeat(65)], name: 'n', expires_in_minutes: 1, max_uses: 1 }],
    ['an empty name', { ids: ['a'], name: '', expires_in_minutes: 1, max_uses: 1 }],
    ['a name of 121 characters', { ids: ['a'], name: 'n'.repeat(121), expires_in_minutes: 1, max_uses: 1 }],
    ['an expiry of 0 minutes', { ids: ['a'], name: 'n', expires_in_minutes: 0, max_uses: 1 }],
    ['an expiry of 43201 minutes', { ids: ['a'], name: 'n', expires_in_minutes: 43_201, max_uses: 1 }],
    ['a fractional expiry', { ids: ['a'], name: 'n', expires_in_minutes: 1.5, max_uses: 1 }],
    ['an expiry as a string', { ids: ['a'], name: 'n', expires_in_minutes: '60', max_uses: 1 }],
    ['max_uses 0', { ids: ['a'], name: 'n', expires_in_minutes: 1, max_uses: 0 }],
    ['max_uses 1001', { ids: ['a'], name: 'n', expires_in_minutes: 1, max_uses: 1001 }],
    [
      'include_secrets as a string',
      { ids: ['a'], name: 'n', expires_in_minutes: 1, max_uses: 1, include_secrets: 'true' },
    ],
    ['another field', { ids: ['a'], name: 'n', expires_in_minutes: 1, max_uses: 1, code: 'x' }],
  ])('refuses %s', async (_, body) => {
    expectError(await createShare(body), 400, 'request.invalid');
  });

  it('refuses ids that name no flow, listing them', async () => {
    const real = await createFlow({ name: 'real', steps: [] });
    const res = await createShare({ ids: [real, 'ghost-a', 'ghost-b'], name: 'n', expires_in_minutes: 1, max_uses: 1 });
    expectError(res, 400, 'flows.unknown');
    expect(res.json.error.details).toEqual({ ids: ['ghost-a', 'ghost-b'] });
  });

  it('refuses a flow without the flows it depends on', async () => {
    const base = await createFlow({ name: 'base', steps: [] });
    const user = await createFlow({ name: 'user', steps: [], dependencies: [base] });
    const res = await createShare({ ids: [user], name: 'n', expires_in_minutes: 1, max_uses: 1 });
    expectError(res, 400, 'shares.dependencies_outside');
    expect(res.json.error.details).toEqual({ missing: [{ id: user, dependency: base }] });
  });

  it('accepts the largest bounds: 43200 minutes, 1000 uses, a name of 120 characters', async () => {
    const flow = await createFlow({ name: 'bounds', steps: [] });
    const res = await createShare({ ids: [flow], name: 'n'.repeat(120), expires_in_minutes: 43_200, max_uses: 1000 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'n'.repeat(120), max_uses: 1000, uses: 0 });
  });

  it('answers the share and a code once; the bundle is stored encrypted under the code key only', async () => {
    const flow = await createFlow({
      name: 'bundled',
      steps: [{ type: 'wait', ms: 1 }],
      values: [{ name: 'pw', value: 'SHARED-PROTECTED-41aa', protected: true }],
    });
    const before = Date.now();
    const res = await createShare({
      ids: [flow],
      name: 'With secrets',
      expires_in_minutes: 90,
      max_uses: 3,
      include_secrets: true,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'With secrets',
      expires_at: expect.any(Number),
      max_uses: 3,
      uses: 0,
      size: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      code: expect.stringMatching(/^lpas1\./),
    });
    const { code, id } = res.json;
    expect(code.length).toBeGreaterThanOrEqual(8);
    expect(code.length).toBeLessThanOrEqual(2010);
    expect(res.json.expires_at).toBeGreaterThanOrEqual(before + 90 * 60_000);
    expect(res.json.expires_at).toBeLessThanOrEqual(Date.now() + 90 * 60_000);

    const bundle = await storedBundle(code);
    expect(bundle.length).toBe(res.json.size);
    expect(bytesToHex(sha256(bundle))).toBe(res.json.sha256);
    expect(new TextDecoder().decode(bundle)).toContain('SHARED-PROTECTED-41aa');

    expect(await tablesHolding('SHARED-PROTECTED-41aa')).toEqual([]);
    expect(await tablesHolding('lpa.share.v1')).toEqual([]);
    expect(await tablesHolding(code.split('.')[2])).toEqual([]);

    const list = await call(SHARES);
    expect(list.json.items.find((s: Share) => s.id === id)).toEqual({
      id,
      name: 'With secrets',
      expires_at: res.json.expires_at,
      max_uses: 3,
      uses: 0,
      size: res.json.size,
      sha256: res.json.sha256,
    });
    expect(list.text).not.toContain(code.split('.')[2]);
    expect(await auditOf('shares.create', id)).toEqual([
      expect.objectContaining({
        result: 'ok',
        details: {
          name: 'With secrets',
          flows: 1,
          include_secrets: true,
          max_uses: 3,
          expires_at: res.json.expires_at,
        },
      }),
    ]);
  });

  it(
    'refuses a bundle beyond 8 MiB',
    async () => {
      const ids: string[] = [];
      for (let i = 0; i < 9; i++)
        ids.push(
          await createFlow({
            name: `bulky-${i}`,
            steps: [{ type: 'type', selector: '#a', text: 'x'.repeat(1_000_000) }],
          }),
        );
      const res = await createShare({ ids, name: 'bulky', expires_in_minutes: 1, max_uses: 1 });
      expectError(res, 400, 'shares.bundle_too_large');
      expect(res.json.error.details).toEqual({ size: expect.any(Number), limit_bytes: 8 * 1024 * 1024 });
      expect(res.json.error.details.size).toBeGreaterThan(9_000_000);
    },
    LARGE_TIMEOUT_MS,
  );

  it(
    'shares, redeems and imports a bundle of 8 MB, stored in pieces',
    async () => {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++)
        ids.push(
          await createFlow({
            name: `large-${i}`,
            steps: [{ type: 'type', selector: '#a', text: String(i).repeat(1_000_000) }],
          }),
        );
      const created = await createShare({ ids, name: 'large', expires_in_minutes: 1, max_uses: 1 });
      expect(created.status).toBe(200);
      expect(created.json.size).toBeGreaterThan(8_000_000);
      const pieces = await inStore(
        ({ sql }) =>
          sql.exec('SELECT count(*) AS n FROM automation_chunks WHERE owner = ?', `share:${created.json.id}`).one().n,
      );
      expect(pieces).toBeGreaterThan(1);
      const preview = await redeem(created.json.code);
      expect(preview.json.items.map((i: PreviewItem) => i.name)).toEqual(ids.map((_, i) => `large-${i}`));
      const imported = await importItems(preview.json.ticket, [ids[7]!]);
      const flow = await call(`/api/v1/automation/flows/${imported.json.items[0].id}`);
      expect(flow.json.steps[0].text === '7'.repeat(1_000_000)).toBe(true);
    },
    LARGE_TIMEOUT_MS,
  );

  it('leaves protected values out of the bundle unless include_secrets', async () => {
    const { share } = await shareOf({ secret: 'LEFT-OUT-SECRET-5e' });
    expect(new TextDecoder().decode(await storedBundle(share.code))).not.toContain('LEFT-OUT-SECRET-5e');
  });
});

describe('redeeming codes', () => {
  it('answers the preview and spends one use', async () => {
    const base = await createFlow({
      name: 'base',
      group: 'g',
      description: 'd',
      is_template: true,
      steps: [
        { type: 'wait', ms: 1 },
        { type: 'wait', ms: 2 },
      ],
    });
    const user = await createFlow({
      name: 'user',
      dependencies: [base],
      steps: [{ type: 'wait', ms: 3 }],
      values: [
        { name: 'p', value: 'secret', protected: true },
        { name: 'q', protected: true },
        { name: 'r', value: 'plain' },
        { name: 's' },
      ],
    });
    const created = await createShare({
      ids: [base, user],
      name: 'pair',
      expires_in_minutes: 10,
      max_uses: 2,
      include_secrets: true,
    });
    const before = Date.now();
    const res = await redeem(created.json.code);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      sha256: created.json.sha256,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      ticket: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      expires_at: expect.any(Number),
      items: [
        {
          id: base,
          name: 'base',
          dependencies: [],
          group: 'g',
          description: 'd',
          missing_values: 0,
          is_template: true,
          steps: 2,
          protected_values: 0,
        },
        {
          id: user,
          name: 'user',
          dependencies: [base],
          group: null,
          description: null,
          missing_values: 2,
          is_template: false,
          steps: 1,
          protected_values: 1,
        },
      ],
    });
    expect(res.json.expires_at).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(Date.parse(res.json.created_at)).toBeLessThanOrEqual(before);
    const listed = (await call(SHARES)).json.items.find((s: Share) => s.id === created.json.id);
    expect(listed.uses).toBe(1);
    expect(await auditOf('shares.redeem', created.json.id)).toEqual([
      expect.objectContaining({ result: 'ok', details: { uses: 1, items: 2 } }),
    ]);
  });

  it('counts protected values left out of the bundle as missing', async () => {
    const { share } = await shareOf({ include_secrets: false });
    const res = await redeem(share.code);
    expect(res.json.items[0]).toMatchObject({ protected_values: 0, missing_values: 1 });
  });

  it('lets exactly one of eight parallel redeems of a single-use code succeed', async () => {
    const { share } = await shareOf({ max_uses: 1 });
    const results = await Promise.all(Array.from({ length: 8 }, () => redeem(share.code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(7);
    for (const r of refused) expectError(r, 409, 'shares.exhausted');
    expect((await call(SHARES)).json.items.find((s: Share) => s.id === share.id).uses).toBe(1);
  });

  it.each([
    ['7 characters', 'lpas1.x'],
    ['2011 characters', 'x'.repeat(2011)],
    ['a number', 12345678],
  ])('refuses a code of %s as invalid input', async (_, code) => {
    expectError(await redeem(code), 400, 'request.invalid');
  });

  it.each([
    'not a share code',
    'lpas1.nothing.here',
    `lpas1.${'0'.repeat(36)}.${'A'.repeat(43)}`,
    `lpas2.00000000-0000-4000-8000-000000000000.${'A'.repeat(43)}`,
    `lpas1.00000000-0000-4000-8000-000000000000.${'A'.repeat(42)}B`,
    `lpas1.00000000-0000-4000-8000-000000000000.${'A'.repeat(43)} `,
    'x'.repeat(2010),
  ])('answers junk %# as a malformed code', async (code) => {
    expectError(await redeem(code), 400, 'shares.code_malformed');
  });

  it('answers a well-formed code of no share as unknown', async () => {
    expectError(await redeem(`lpas1.${crypto.randomUUID()}.${'A'.repeat(43)}`), 404, 'shares.code_unknown');
  });

  it('answers a code with an altered key as invalid, without spending a use', async () => {
    const { share } = await shareOf();
    const key = share.code.split('.')[2]!;
    const altered = `lpas1.${share.id}.${key[0] === 'A' ? 'B' : 'A'}${key.slice(1)}`;
    expectError(await redeem(altered), 400, 'shares.code_invalid');
    expect((await call(SHARES)).json.items.find((s: Share) => s.id === share.id).uses).toBe(0);
    const otherId = share.code.replace(share.id, crypto.randomUUID());
    expectError(await redeem(otherId), 404, 'shares.code_unknown');
  });

  it('answers a share whose stored bundle was altered as an invalid code, not a server error', async () => {
    const { share } = await shareOf();
    await inStore(({ sql }) => {
      const data = sql
        .exec<{ data: string }>(`SELECT data FROM automation_chunks WHERE owner = ? AND seq = 0`, `share:${share.id}`)
        .one().data;
      const at = data.length - 5;
      const flipped = data.slice(0, at) + (data[at] === 'A' ? 'B' : 'A') + data.slice(at + 1);
      sql.exec(`UPDATE automation_chunks SET data = ? WHERE owner = ? AND seq = 0`, flipped, `share:${share.id}`);
    });
    expectError(await redeem(share.code), 400, 'shares.code_invalid');
  });

  it('answers an expired share as expired', async () => {
    const { share } = await shareOf();
    await inStore(({ sql }) =>
      sql.exec('UPDATE automation_shares SET expires_at = ? WHERE id = ?', Date.now() - 1, share.id),
    );
    expectError(await redeem(share.code), 409, 'shares.expired');
  });

  it('answers an exhausted share as exhausted', async () => {
    const { share } = await shareOf({ max_uses: 2 });
    expect((await redeem(share.code)).status).toBe(200);
    expect((await redeem(share.code)).status).toBe(200);
    const res = await redeem(share.code);
    expectError(res, 409, 'shares.exhausted');
    expect(res.json.error.details).toEqual({ id: share.id, uses: 2, max_uses: 2 });
  });
});

describe('revoking shares', () => {
  it('stops the code and outstanding tickets, and deletes the bundle', async () => {
    const { share, flow } = await shareOf();
    const preview = await redeem(share.code);
    const res = await call(`${SHARES}/${share.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect((await call(SHARES)).json.items.map((s: Share) => s.id)).not.toContain(share.id);
    expectError(await redeem(share.code), 409, 'shares.revoked');
    expectError(await importItems(preview.json.ticket, [flow]), 409, 'shares.revoked');
    expect(
      await inStore(
        ({ sql }) =>
          sql.exec('SELECT count(*) AS n FROM automation_chunks WHERE owner = ?', `share:${share.id}`).one().n,
      ),
    ).toBe(0);
    expectError(await call(`${SHARES}/${share.id}`, { method: 'DELETE' }), 404, 'resource.not_found');
    expect(await auditOf('shares.revoke', share.id)).toEqual([expect.objectContaining({ result: 'ok' })]);
  });

  it('answers 404 for an unknown share and 400 for an id of 65 characters', async () => {
    expectError(await call(`${SHARES}/no-such-share`, { method: 'DELETE' }), 404, 'resource.not_found');
    expectError(await call(`${SHARES}/${'s'.repeat(65)}`, { method: 'DELETE' }), 400, 'request.invalid');
  });
});

describe('importing', () => {
  async function redeemedChain(includeSecrets: boolean) {
    const a = await createFlow({
      name: 'chain-a',
      steps: [{ type: 'wait', ms: 1 }],
      values: [{ name: 'key', value: 'IMPORTED-SECRET-0b', protected: true }],
    });
    const b = await createFlow({ name: 'chain-b', steps: [], dependencies: [a] });
    const c = await createFlow({ name: 'chain-c', is_template: true, steps: [], dependencies: [b] });
    const created = await createShare({
      ids: [a, b, c],
      name: 'chain',
      expires_in_minutes: 5,
      max_uses: 1,
      include_secrets: includeSecrets,
    });
    const preview = await redeem(created.json.code);
    return { a, b, c, ticket: preview.json.ticket as string, shareId: created.json.id as string };
  }

  it('creates new flows with new ids and remapped dependencies; the ticket is then spent', async () => {
    const { a, b, c, ticket, shareId } = await redeemedChain(true);
    const res = await importItems(ticket, [c, b, a]);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      items: [
        { id: expect.any(String), name: 'chain-c', is_template: true },
        { id: expect.any(String), name: 'chain-b', is_template: false },
        { id: expect.any(String), name: 'chain-a', is_template: false },
      ],
    });
    const [newC, newB, newA] = res.json.items.map((i: ImportedFlow) => i.id);
    expect(new Set([newA, newB, newC, a, b, c]).size).toBe(6);
    expect((await call(`/api/v1/automation/flows/${newC}`)).json.dependencies).toEqual([newB]);
    expect((await call(`/api/v1/automation/flows/${newB}`)).json.dependencies).toEqual([newA]);
    const importedA = await call(`/api/v1/automation/flows/${newA}`);
    expect(importedA.json).toMatchObject({
      name: 'chain-a',
      steps: [{ type: 'wait', ms: 1 }],
      values: [{ name: 'key', value: null, protected: true, value_set: true }],
    });
    expect(await tablesHolding('IMPORTED-SECRET-0b')).toEqual([]);
    expectError(await importItems(ticket, [a]), 409, 'shares.ticket_used');
    const audit = await auditOf('shares.import', shareId);
    expect(audit).toEqual([expect.objectContaining({ result: 'ok' })]);
    expect(audit[0]!.details).toEqual({
      flows: [
        { from: c, id: newC },
        { from: b, id: newB },
        { from: a, id: newA },
      ],
    });
  });

  it('imports protected values empty when the share left them out', async () => {
    const { a, ticket } = await redeemedChain(false);
    const res = await importItems(ticket, [a]);
    expect((await call(`/api/v1/automation/flows/${res.json.items[0].id}`)).json.values).toEqual([
      { name: 'key', value: null, protected: true, value_set: false },
    ]);
  });

  it('reports a dependency outside the chosen items and keeps the ticket', async () => {
    const { a, b, c, ticket } = await redeemedChain(false);
    const res = await importItems(ticket, [c, a]);
    expectError(res, 400, 'shares.import_dependencies_missing');
    expect(res.json.error.details).toEqual({ missing: [{ id: c, dependency: b }] });
    expect((await importItems(ticket, [a, b])).status).toBe(200);
  });

  it('refuses ids that are not items of the share', async () => {
    const { a, ticket } = await redeemedChain(false);
    const res = await importItems(ticket, [a, 'not-an-item']);
    expectError(res, 400, 'shares.import_unknown_items');
    expect(res.json.error.details).toEqual({ ids: ['not-an-item'] });
  });

  it('answers unknown and expired tickets', async () => {
    expectError(await importItems(crypto.randomUUID(), ['x']), 404, 'shares.ticket_unknown');
    const { a, ticket } = await redeemedChain(false);
    await inStore(({ sql }) =>
      sql.exec('UPDATE automation_share_tickets SET expires_at = ? WHERE ticket = ?', Date.now() - 1, ticket),
    );
    expectError(await importItems(ticket, [a]), 409, 'shares.ticket_expired');
  });

  it.each([
    ['a ticket that is not a UUID', { ticket: 'ticket', ids: ['a'] }],
    ['an upper-case ticket', { ticket: crypto.randomUUID().toUpperCase(), ids: ['a'] }],
    ['no ids', { ticket: crypto.randomUUID(), ids: [] }],
    ['an id twice', { ticket: crypto.randomUUID(), ids: ['a', 'a'] }],
    ['another field', { ticket: crypto.randomUUID(), ids: ['a'], all: true }],
  ])('refuses %s', async (_, body) => {
    expectError(await call(`${SHARES}/import`, { method: 'POST', body }), 400, 'request.invalid');
  });
});
