import { env, runInDurableObject } from 'cloudflare:test';
import { storeStub, type WorkerEnv } from '../../src/runtimes/workerd/env';
import type { PlatformAccount } from '../../storage/profile-accounts/schema';
import type { Profile } from '../../storage/profiles/schema';
import { call } from './api';

/** The one store of the test service. */
export const testStore = () => storeStub(env as unknown as WorkerEnv);

/** Creates a profile through the API and fails the test unless it was created. */
export async function createProfile(body: Record<string, unknown>): Promise<Profile> {
  const res = await call('/api/v1/profiles', { method: 'POST', body });
  if (res.status !== 201) throw new Error(`profile creation failed: ${res.status} ${res.text}`);
  return res.json as Profile;
}

export async function createAccount(profileId: string, body: Record<string, unknown>) {
  const res = await call(`/api/v1/profiles/${profileId}/accounts`, { method: 'POST', body });
  if (res.status !== 201) throw new Error(`account creation failed: ${res.status} ${res.text}`);
  return res.json as PlatformAccount;
}

/** Every row of a table, raw, as the Durable Object's SQLite holds it. */
export function rawRows(table: string): Promise<Record<string, unknown>[]> {
  return runInDurableObject(testStore(), (_instance, state) => state.storage.sql.exec(`SELECT * FROM ${table}`).toArray());
}

/** The audit entries of one action, oldest first. */
export function auditRows(action: string): Promise<Record<string, unknown>[]> {
  return runInDurableObject(testStore(), (_instance, state) =>
    state.storage.sql.exec('SELECT * FROM audit_log WHERE action = ? ORDER BY seq', action).toArray());
}
