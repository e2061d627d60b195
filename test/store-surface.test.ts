import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_STORE_KEY, storeClient, type StoreCall } from '../storage/client';
import { STORE_SURFACE } from '../storage/surface';
import { call } from './support/api';
import { sql, storeOverRpc } from './support/store';

/**
 * Only the store operations that the surface declares (storage/surface.ts) cross from the Worker to
 * the store's Durable Object: the client has no other method, and the object refuses any other call
 * sent to its `invoke`, whatever the sender.
 */
const invoke = storeOverRpc();
const DAY_MS = 86_400_000;

/** A call the surface does not declare, as a sender that ignores the types would build it. */
const undeclared = (family: string, method: string, args: unknown[]) =>
  ({ family, method, args }) as unknown as StoreCall;

const auditEntries = async () => (await sql<{ n: number }>('SELECT count(*) AS n FROM audit_log'))[0]!.n;

describe('the store surface', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('refuses audit.purge sent to the Durable Object, logs it, and purges nothing', async () => {
    expect(
      (
        await call('/api/v1/automation/globals/surface_probe', {
          method: 'PUT',
          body: { value: 'a', expected_revision: 0 },
        })
      ).status,
    ).toBe(200);
    const before = await auditEntries();
    expect(before).toBeGreaterThan(0);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    // A purge that, were it run, would delete every entry of the log.
    const reply = await invoke(undeclared('audit', 'purge', [Date.now() + 365 * DAY_MS, 1]));
    expect(reply).toMatchObject({ ok: false, error: { code: 'internal' }, audited: false });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('audit.purge is not on the store'));
    expect(await auditEntries()).toBe(before);
  });

  it.each([
    ['tokens', 'shareLiveTokens'],
    ['audit', 'sealDue'],
    ['profiles', 'require'],
    ['system', 'constructor'],
    ['__proto__', 'toString'],
    ['nope', 'list'],
  ])('refuses %s.%s', async (family, method) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await invoke(undeclared(family, method, []))).toMatchObject({
      ok: false,
      error: { code: 'internal' },
      audited: false,
    });
  });

  it('still serves a declared method', async () => {
    const reply = await invoke({ family: 'globals', method: 'list', args: [] });
    expect(reply).toMatchObject({ ok: true });
    expect(reply.ok && (reply.value as { name: string }[]).map((g) => g.name)).toContain('surface_probe');
  });

  it('gives the Worker a function for each declared method and for nothing else', () => {
    const client = storeClient(invoke, { storeKey: LOCAL_STORE_KEY });
    for (const [family, methods] of Object.entries(STORE_SURFACE)) {
      expect(Object.keys(client[family as keyof typeof client]).sort()).toEqual([...methods].sort());
    }
    // @ts-expect-error: purge is not on the surface, so the client type has no such method
    expect(client.audit.purge).toBeUndefined();
  });
});
