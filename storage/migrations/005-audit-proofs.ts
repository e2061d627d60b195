import type { Migration } from './migrate';

export const auditProofsMigration: Migration = {
  id: 5,
  name: 'audit proofs: hash versions and signed anchors',
  statements: [
    // The canonical form an entry was hashed in (storage/audit/chain.ts). Rows written before this
    // migration were hashed in form 1; every entry written after it is form 2, which hashes `v` too,
    // so the switch is itself in the chain.
    `ALTER TABLE audit_log ADD COLUMN v INTEGER NOT NULL DEFAULT 1`,
    // Ed25519 signature of the anchor (storage/audit/signing.ts); null only on anchors written before this migration.
    `ALTER TABLE audit_anchor ADD COLUMN signature TEXT`,
    // The export puts a day's anchor on the line of its last entry: a join on seq.
    `CREATE INDEX audit_anchor_seq ON audit_anchor (seq, day)`,
  ],
};
