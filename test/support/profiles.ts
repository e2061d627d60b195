import type { PlatformAccount } from '../../storage/profile-accounts/schema';
import type { Profile } from '../../storage/profiles/schema';
import { call } from './api';
import { sql } from './store';

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
  return sql(`SELECT * FROM ${table}`);
}

/** The audit entries of one action, oldest first. */
export function auditRows(action: string): Promise<Record<string, unknown>[]> {
  return sql('SELECT * FROM audit_log WHERE action = ? ORDER BY seq', action);
}
