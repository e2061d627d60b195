/**
 * The machine's side of `lpa team push`: GET /api/v1/team/export (docs/teams.md#from-one-machine-to-a-team).
 * Pages bounded by count and bytes that together are the whole store, secrets opened, deleted and
 * revoked items left out, admin only, each page audited with the checkpoint after its entry.
 */
import { describe, expect, it } from 'vitest';
import { call, tokenWith } from './support/api';
import { LARGE_TIMEOUT_MS } from './support/automation';

const SCOPES = [
  'audit:read',
  'settings:write',
  'runtime:control',
  'secrets:read',
  'secrets:totp',
  'rpa:write',
  'profiles:read',
  'profiles:write',
];

/** Every page of a kind, following next_offset. */
async function allPages(kind: string) {
  const pages = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const res = await call(`/api/v1/team/export?kind=${kind}&offset=${offset}`);
    expect(res.status, res.text).toBe(200);
    pages.push(res.json);
    offset = res.json.next_offset;
  }
  return pages;
}

describe('GET /api/v1/team/export', () => {
  it('is for an admin only: a token with every scope gets 403 auth.admin_required', async () => {
    const { token } = await tokenWith(SCOPES);
    const res = await call('/api/v1/team/export?kind=profiles', { token });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('auth.admin_required');
  });

  it(
    'pages profiles 500 at most, the pages together every profile in the order they were made',
    async () => {
      for (let i = 0; i < 505; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            call('/api/v1/profiles', { method: 'POST', body: { name: `export ${i + j}` } }),
          ),
        );
      }
      const total = (await call('/api/v1/profiles?limit=1')).json.total as number;
      const pages = await allPages('profiles');
      expect(pages[0].items).toHaveLength(500);
      expect(pages[0].next_offset).toBe(500);
      const items = pages.flatMap((page) => page.items);
      expect(items).toHaveLength(total);
      expect(new Set(items.map((item) => item.id)).size).toBe(total);
      expect(items.every((item) => item.kind === 'profiles' && !('no' in item))).toBe(true);
      const firstMade = (await call('/api/v1/profiles?limit=500&sort=no&order=asc')).json.items.map(
        (p: { id: string }) => p.id,
      );
      expect(pages[0].items.map((item: { id: string }) => item.id)).toEqual(firstMade);
    },
    LARGE_TIMEOUT_MS,
  );

  it(
    'cuts pages at about 512 KiB: a global of 1 MiB goes alone, and every live global is in exactly one page',
    async () => {
      const big = 'x'.repeat(1_048_576);
      for (const name of ['exp_big_a', 'exp_big_b'])
        expect(
          (
            await call(`/api/v1/automation/globals/${name}`, {
              method: 'PUT',
              body: { value: big, expected_revision: 0 },
            })
          ).status,
        ).toBe(200);
      for (const name of ['exp_small', 'exp_gone'])
        await call(`/api/v1/automation/globals/${name}`, {
          method: 'PUT',
          body: { value: 'small', expected_revision: 0 },
        });
      await call('/api/v1/automation/globals/exp_small', {
        method: 'PUT',
        body: { value: 'small again', expected_revision: 1 },
      });
      expect((await call('/api/v1/automation/globals/exp_gone?expected_revision=1', { method: 'DELETE' })).status).toBe(
        200,
      );
      const pages = await allPages('globals');
      for (const page of pages) {
        if (page.items.length > 1)
          expect(JSON.stringify(page.items).length).toBeLessThanOrEqual(512 * 1024 + 2 * page.items.length);
      }
      const items = pages.flatMap((page) => page.items);
      const live = (await call('/api/v1/automation/globals')).json.items.map((g: { name: string }) => g.name);
      expect(items.map((item) => item.id)).toEqual(live);
      expect(items.find((item) => item.id === 'exp_big_a')).toEqual({
        kind: 'globals',
        id: 'exp_big_a',
        revision: 1,
        value: big,
        updated_at: expect.any(Number),
      });
      expect(items.find((item) => item.id === 'exp_small')).toMatchObject({ revision: 2, value: 'small again' });
      expect(items.some((item) => item.id === 'exp_gone')).toBe(false);
      expect(
        pages.find((page) => page.items.some((item: { id: string }) => item.id === 'exp_big_a')).items,
      ).toHaveLength(1);
    },
    LARGE_TIMEOUT_MS,
  );

  it('opens the secrets: an account with its password and 2FA secret, a flow with its protected value; a share keeps its bundle sealed', async () => {
    const profile = (await call('/api/v1/profiles', { method: 'POST', body: { name: 'export secrets' } })).json;
    const account = (
      await call(`/api/v1/profiles/${profile.id}/accounts`, {
        method: 'POST',
        body: { platform_url: 'https://mail.example', password: 'export-pw', totp_secret: 'JBSWY3DPEHPK3PXP' },
      })
    ).json;
    const flow = (
      await call('/api/v1/automation/flows', {
        method: 'POST',
        body: {
          name: 'export flow',
          steps: [{ type: 'wait', ms: 1 }],
          values: [{ name: 'k', value: 'export-protected', protected: true }],
        },
      })
    ).json;
    const kept = (
      await call('/api/v1/automation/shares', {
        method: 'POST',
        body: { ids: [flow.id], name: 'kept', expires_in_minutes: 60, max_uses: 2, include_secrets: true },
      })
    ).json;
    const revoked = (
      await call('/api/v1/automation/shares', {
        method: 'POST',
        body: { ids: [flow.id], name: 'revoked', expires_in_minutes: 60, max_uses: 2 },
      })
    ).json;
    expect((await call(`/api/v1/automation/shares/${revoked.id}`, { method: 'DELETE' })).status).toBe(200);

    const accounts = (await allPages('accounts')).flatMap((page) => page.items);
    expect(accounts.find((item) => item.id === account.id)).toEqual({
      kind: 'accounts',
      id: account.id,
      profile_id: profile.id,
      platform_url: 'https://mail.example',
      username: null,
      password: 'export-pw',
      totp_secret: 'JBSWY3DPEHPK3PXP',
      notes: null,
      sort_order: 0,
      created_at: account.created_at,
      updated_at: account.updated_at,
    });
    const flows = (await allPages('flows')).flatMap((page) => page.items);
    expect(flows.find((item) => item.id === flow.id).values).toEqual([
      { name: 'k', protected: true, value: 'export-protected' },
    ]);
    const shares = (await allPages('shares')).flatMap((page) => page.items);
    const share = shares.find((item) => item.id === kept.id);
    expect(share).toMatchObject({ kind: 'shares', name: 'kept', uses: 0, max_uses: 2, include_secrets: true });
    expect(share.bundle).not.toContain('export-protected');
    expect(shares.some((item) => item.id === revoked.id)).toBe(false);
  });

  it('sends a flow after the flows it needs, also when an edit made it need a newer one', async () => {
    const create = async (name: string) =>
      (await call('/api/v1/automation/flows', { method: 'POST', body: { name, steps: [] } })).json.id as string;
    const older = await create('export older');
    const middle = await create('export middle');
    const newer = await create('export newer');
    for (const [id, dependencies] of [
      [older, [middle]],
      [middle, [newer]],
    ] as const) {
      const res = await call(`/api/v1/automation/flows/${id}`, { method: 'PATCH', body: { dependencies } });
      expect(res.status, res.text).toBe(200);
    }
    const ids = (await allPages('flows')).flatMap((page) => page.items).map((item: { id: string }) => item.id);
    expect(ids.filter((id: string) => [older, middle, newer].includes(id))).toEqual([newer, middle, older]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("audits each page as team.export, and signs the checkpoint after that page's entry", async () => {
    const res = await call('/api/v1/team/export?kind=flows&offset=0');
    const { checkpoint, items } = res.json;
    const entry = (await call(`/api/v1/audit?action=team.export&limit=1`)).json.items[0];
    expect(entry).toMatchObject({
      seq: checkpoint.seq,
      action: 'team.export',
      result: 'ok',
      actor_type: 'admin',
      details: { kind: 'flows', offset: 0, items: items.length },
    });
    expect(checkpoint.store_id).toBe((await call('/api/v1/system/status')).json.store_id);
    expect(checkpoint.key_id).toBe((await call('/api/v1/audit/public-key')).json.key_id);
  });

  it('refuses an unknown kind or a bad offset with 400 request.invalid', async () => {
    for (const query of ['kind=tokens', 'kind=profiles&offset=-1', 'kind=profiles&offset=x', '']) {
      const res = await call(`/api/v1/team/export?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error.code).toBe('request.invalid');
    }
  });
});
