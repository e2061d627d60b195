import type { Migration } from './migrations';
import { foundationMigration } from './migrations/001-foundation';
import { auditMigration } from './migrations/002-audit';
import { automationMigration } from './migrations/003-automation';

/**
 * Every schema change, in order, one file each in storage/migrations/. A migration is never edited
 * once landed: add a new one.
 */
export const MIGRATIONS: readonly Migration[] = [foundationMigration, auditMigration, automationMigration];
