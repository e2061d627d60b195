import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/shared/errors/api-error';
import { SYSTEM_ACTOR } from '../storage/audit/entry';
import { committedStore, GroupCommit } from '../storage/client';
import { durableSql } from '../storage/sql/durable-sql';
import { openStore, type Store } from '../storage/store';
import { call } from './support/api';
import { createAccount, createProfile, rawRows } from './support/profiles';
import { serviceWith, type TestService } from './support/service';
import { inStore } from './support/store';

const audit = (action: 'profile_accounts.create' | 'profile_accounts.password_read') => ({
  actor: SYSTEM_ACTOR,
  source: 'test',
  request_id: null,
  action,
});
const NO_KEYS = { vault: null, vaultReason: 'vault.key is missing', mac: null, signing: null, seals: [] };

/** The Durable Object's database opened as a store without its keys, as after losing vault.key. */
const openLocked = (storage: DurableObjectStorage) =>
  openStore(durableSql(storage), async () => NO_KEYS).then((opened) => opened.store);

/**
 * The service as the worker builds it, but its object serves a store opened on the same database
 * without its keys. The store of the service under test is left as it is.
 */
async function lockedService(): Promise<TestService> {
  const locked = await inStore(({ storage }) => openLocked(storage));
  return serviceWith({
    store: ({ storage }) => ({ store: locked, client: committedStore(locked, new GroupCommit(durableSql(storage))) }),
  });
}

describe('vault missing', () => {
  it('a store without its key refuses to seal or open, and writes nothing', async () => {
    const p = await createProfile({ name: 'vault-direct' });
    const a = await createAccount(p.id, { platform_url: 'u', password: 'vault-direct-pw' });
    const outcome = await inStore(async ({ storage, sql }) => {
      const locked: Store = await openLocked(storage);
      const caught = (fn: () => unknown) => {
        try {
          fn();
          return null;
        } catch (error) {
          return error instanceof ApiError
            ? { code: error.code, status: error.status, details: error.details }
            : String(error);
        }
      };
      const count = () => sql.exec<{ n: number }>('SELECT count(*) AS n FROM profile_accounts').one().n;
      const before = count();
      return {
        state: locked.system.info().vault,
        read: caught(() => locked.profileAccounts.password(audit('profile_accounts.password_read'), p.id, a.id)),
        write: caught(() =>
          locked.profileAccounts.create(audit('profile_accounts.create'), p.id, { platform_url: 'v', password: 'x' }),
        ),
        written: count() - before,
        listed: locked.profileAccounts.list(p.id).map((x) => x.password_set),
      };
    });
    const lockedError = {
      code: 'vault.locked',
      status: 503,
      details: { state: 'missing', reason: 'vault.key is missing' },
    };
    expect(outcome).toEqual({
      state: { state: 'missing', reason: 'vault.key is missing' },
      read: lockedError,
      write: lockedError,
      written: 0,
      listed: [true],
    });
  });

  it('secret routes answer 503 vault.locked, other routes work, and nothing is lost once the key is back', async () => {
    const p = await createProfile({ name: 'vault-routes' });
    const a = await createAccount(p.id, {
      platform_url: 'u',
      password: 'vault-routes-pw',
      totp_secret: 'JBSWY3DPEHPK3PXP',
    });
    const base = `/api/v1/profiles/${p.id}/accounts`;
    const sealedBefore = (await rawRows('profile_accounts')).find((r) => r.id === a.id);
    const locked = await lockedService();
    const status = await call('/api/v1/system/status', { fetcher: locked });
    expect(status.json.vault).toEqual({ state: 'missing', reason: 'vault.key is missing' });
    const refused = [
      await call(`${base}/${a.id}/password`, { fetcher: locked }),
      await call(`${base}/${a.id}/totp`, { fetcher: locked }),
      await call(base, { method: 'POST', body: { platform_url: 'w', password: 'new' }, fetcher: locked }),
      await call(`${base}/${a.id}`, { method: 'PATCH', body: { password: 'changed' }, fetcher: locked }),
      await call(`${base}/${a.id}`, { method: 'PATCH', body: { totp_secret: 'JBSWY3DPEHPK3PXP' }, fetcher: locked }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.json).toEqual({
        error: {
          code: 'vault.locked',
          message: expect.any(String),
          details: { state: 'missing', reason: 'vault.key is missing' },
        },
        request_id: expect.any(String),
      });
    }
    const listed = await call(base, { fetcher: locked });
    expect(listed.json.items).toEqual([expect.objectContaining({ id: a.id, password_set: true, totp_set: true })]);
    const renamed = await call(`${base}/${a.id}`, {
      method: 'PATCH',
      body: { username: 'still-works' },
      fetcher: locked,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ username: 'still-works', password_set: true, totp_set: true });
    // The service's own store, which has the key, reads every secret as it was.
    const after = (await rawRows('profile_accounts')).find((r) => r.id === a.id);
    expect(after).toMatchObject({ password: sealedBefore!.password, totp_secret: sealedBefore!.totp_secret });
    expect((await call(`${base}/${a.id}/password`)).json).toEqual({ password: 'vault-routes-pw' });
    expect((await call(`${base}/${a.id}/totp`)).status).toBe(200);
    expect((await call('/api/v1/system/status')).json.vault).toEqual({ state: 'unlocked', reason: null });
  });
});
