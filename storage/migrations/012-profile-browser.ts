import type { Migration } from './migrate';

/**
 * The browser settings a profile keeps (docs/runs.md#browser-settings), as one JSON text; a profile
 * made before holds null, which reads as the defaults.
 */
export const profileBrowserMigration: Migration = {
  id: 12,
  name: 'profile-browser',
  statements: ['ALTER TABLE profiles ADD COLUMN browser TEXT'],
};
