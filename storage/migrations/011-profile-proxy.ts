import type { Migration } from './migrate';

/**
 * A profile's proxy (storage/profiles/proxy.ts): `proxy` holds its type, host, port and user name as
 * JSON, `proxy_password` its password sealed by the vault (null when it has none).
 */
export const profileProxyMigration: Migration = {
  id: 11,
  name: 'profile-proxy',
  statements: ['ALTER TABLE profiles ADD COLUMN proxy TEXT', 'ALTER TABLE profiles ADD COLUMN proxy_password TEXT'],
};
