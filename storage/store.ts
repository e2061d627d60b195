import { Audit } from './audit/audit';
import { MembershipCache } from './membership/membership';
import { Members } from './members/members';
import { ProfileAccounts } from './profile-accounts/profile-accounts';
import { SYSTEM_ACTOR } from './audit/entry';
import type { ProofKeys } from './audit/proofs';
import { StoreContext } from './context';
import { Flows } from './flows/flows';
import { FlowRuns } from './flow-runs/flow-runs';
import { Globals } from './globals/globals';
import { migrate, type MigrationReport } from './migrations/migrate';
import { Profiles } from './profiles/profiles';
import { Runs } from './runs/runs';
import { RunLeases } from './leases/leases';
import { ProfileBundles } from './bundles/bundles';
import { auditProofsMigration } from './migrations/005-audit-proofs';
import { auditKeyStartMigration } from './migrations/006-audit-key-start';
import { signKeyStart } from './audit/key-start';
import { AuditSigner } from './audit/signing';
import { MIGRATIONS } from './migrations/list';
import { Settings } from './settings/settings';
import { Shares } from './shares/shares';
import type { SqlDb } from './sql/sql';
import { System } from './system/system';
import { Tokens } from './tokens/tokens';
import { Transfer } from './transfer/transfer';
import { Vault } from './vault';
import { Witness } from './witness/witness';

/** What the store keeps outside the database, in the data root: its keys and the audit's seal record. */
export interface StoreKeys extends ProofKeys {
  vault: Uint8Array | null;
  vaultReason: string | null;
}

/**
 * Where a store gets its keys from. `create.keys` is true only for a store that has no schema yet;
 * `create.signing` also for a store from before migration 5, which brought the signing key.
 */
export type KeySource = (create: { keys: boolean; signing: boolean }) => Promise<StoreKeys>;

/**
 * The whole state of LPA, as families of operations. Every public method is synchronous and runs
 * its reads, writes and audit entry in one transaction. The Durable Object serves the methods its
 * surface declares (storage/surface.ts) over RPC, and the Bun/Deno entry calls the same in process.
 */
export class Store {
  readonly system: System;
  readonly tokens: Tokens;
  readonly settings: Settings;
  readonly globals: Globals;
  readonly flows: Flows;
  readonly flowRuns: FlowRuns;
  readonly shares: Shares;
  readonly audit: Audit;
  readonly profiles: Profiles;
  readonly runs: Runs;
  readonly leases: RunLeases;
  readonly bundles: ProfileBundles;
  readonly profileAccounts: ProfileAccounts;
  readonly membership: MembershipCache;
  readonly members: Members;
  readonly witness: Witness;
  readonly transfer: Transfer;

  /** A store over a migrated database at `dbVersion`; `openStore` migrates and makes one. */
  constructor(db: SqlDb, keys: StoreKeys, dbVersion: number, now: () => number = Date.now) {
    const vault = keys.vault
      ? Vault.unlocked(keys.vault)
      : new Vault(null, 'missing', keys.vaultReason ?? 'vault.key is missing');
    const ctx = new StoreContext(db, now, vault, keys);
    db.run(`INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', ?)`, crypto.randomUUID());
    this.system = new System(ctx, dbVersion);
    this.tokens = new Tokens(ctx);
    this.audit = new Audit(ctx);
    this.settings = new Settings(ctx, this.audit);
    this.globals = new Globals(ctx);
    this.flows = new Flows(ctx);
    this.flowRuns = new FlowRuns(ctx);
    this.shares = new Shares(ctx);
    this.profiles = new Profiles(ctx);
    this.runs = new Runs(ctx);
    this.leases = new RunLeases(ctx, this.profiles);
    this.bundles = new ProfileBundles(ctx, this.leases);
    this.profileAccounts = new ProfileAccounts(ctx, this.profiles);
    this.membership = new MembershipCache(ctx);
    this.members = new Members(ctx);
    this.witness = new Witness(ctx);
    this.transfer = new Transfer(ctx, this);
    this.system.record(
      { actor: SYSTEM_ACTOR, source: 'system', request_id: null, action: 'service.start' },
      'ok',
      {
        details: { db_version: dbVersion, vault: vault.state },
      },
      null,
    );
    // A job's steps run in the memory of the service that started it: one this store did not start is over.
    this.flowRuns.failLeftBehind();
  }
}

export type StoreFamily = keyof Store;

/** A store that has just been opened, with what its migration did. */
export interface OpenedStore {
  store: Store;
  migrations: MigrationReport;
}

/**
 * Opens the store of `db`. Its keys are read (and, for a store that has no schema yet, made) before
 * it is migrated: a start that dies in between leaves a store that is still new, and the next start
 * makes its keys.
 */
export async function openStore(db: SqlDb, keySource: KeySource, now: () => number = Date.now): Promise<OpenedStore> {
  const fresh = db.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'migrations'`).length === 0;
  const signed = !fresh && db.all('SELECT id FROM migrations WHERE id = ?', auditProofsMigration.id).length > 0;
  const keys = await keySource({ keys: fresh, signing: !signed });
  const migrations = migrate(db, MIGRATIONS, now());
  // The key start is signed once, by the start that wrote it: never again over whatever the table holds later.
  if (keys.signing && migrations.applied.some((migration) => migration.id === auditKeyStartMigration.id)) {
    signKeyStart(db, new AuditSigner(keys.signing));
  }
  return { store: new Store(db, keys, migrations.version, now), migrations };
}
