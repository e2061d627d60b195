import { migrationList } from './migrate';
import { foundationMigration } from './001-foundation';
import { auditMigration } from './002-audit';
import { automationMigration } from './003-automation';
import { profilesMigration } from './004-profiles';
import { auditProofsMigration } from './005-audit-proofs';
import { auditKeyStartMigration } from './006-audit-key-start';
import { membersMigration } from './007-members';
import { teamWitnessMigration } from './008-team-witness';
import { witnessPerTeamMigration } from './009-witness-per-team';
import { runsMigration } from './010-runs';
import { profileProxyMigration } from './011-profile-proxy';
import { profileBrowserMigration } from './012-profile-browser';
import { flowRunsMigration } from './013-flow-runs';
import { runLeasesMigration } from './014-run-leases';
import { profileBundlesMigration } from './015-profile-bundles';

/**
 * Every schema change, in order, one file each in storage/migrations/. A migration is never edited
 * once landed: add a new one, with the next id (a duplicate or out-of-order id fails at load).
 */
export const MIGRATIONS = migrationList([
  foundationMigration,
  auditMigration,
  automationMigration,
  profilesMigration,
  auditProofsMigration,
  auditKeyStartMigration,
  membersMigration,
  teamWitnessMigration,
  witnessPerTeamMigration,
  runsMigration,
  profileProxyMigration,
  profileBrowserMigration,
  flowRunsMigration,
  runLeasesMigration,
  profileBundlesMigration,
]);
