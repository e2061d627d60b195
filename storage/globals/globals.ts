import { ApiError } from '../../src/shared/errors/api-error';
import { utf8Bytes } from '../../src/shared/unicode';
import type { AuditContext } from '../audit/entry';
import { deleteChunks, getChunks, putChunks } from '../chunks';
import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import type { GlobalDelete, GlobalSummary, GlobalValue, GlobalWrite } from './schema';

type GlobalRow = GlobalSummary & { deleted: number };

/** A global as `lpa team push` carries it: its revision and its value in plaintext. */
export type PlainGlobal = Pick<GlobalSummary, 'name' | 'revision' | 'updated_at'> & Pick<GlobalValue, 'value'>;

const owner = (name: string) => `global:${name}`;
const aad = (name: string) => `global:${name}:value`;

/**
 * Automation globals: values sealed with the vault, every write checked against the revision the
 * writer last saw. A deleted global keeps its row as a tombstone, so a writer holding a revision of
 * the deleted value can never overwrite a new global of the same name that starts again at 1.
 */
export class Globals {
  constructor(private readonly ctx: StoreContext) {}

  list(): GlobalSummary[] {
    return this.ctx.db.all<GlobalSummary>(
      'SELECT name, revision, bytes, updated_at FROM automation_globals WHERE deleted = 0 ORDER BY name',
    );
  }

  read(audit: AuditContext, name: string): GlobalValue {
    return this.ctx.change(
      audit,
      () => {
        const row = this.live(name);
        if (!row) throw notFound(name);
        return { value: this.ctx.vault.open(getChunks(this.ctx.db, owner(name))!, aad(name)), revision: row.revision };
      },
      (read) => ({ entity_type: 'global', entity_id: name, details: { revision: read.revision } }),
    );
  }

  write(audit: AuditContext, name: string, { value, expected_revision: expectedRevision }: GlobalWrite): GlobalSummary {
    return this.ctx.change(
      audit,
      () => {
        const row = this.row(name);
        const current = row && row.deleted === 0 ? row.revision : 0;
        if (expectedRevision !== current) throw conflict(current);
        const next: GlobalSummary = {
          name,
          revision: (row?.revision ?? 0) + 1,
          bytes: utf8Bytes(value).length,
          updated_at: this.ctx.now(),
        };
        this.put(next, value);
        return next;
      },
      (next) => ({ entity_type: 'global', entity_id: name, details: { revision: next.revision, bytes: next.bytes } }),
    );
  }

  delete(audit: AuditContext, name: string, { expected_revision: expectedRevision }: GlobalDelete): void {
    this.ctx.change(
      audit,
      () => {
        const row = this.live(name);
        if (!row) throw notFound(name);
        if (row.revision !== expectedRevision) throw conflict(row.revision);
        deleteChunks(this.ctx.db, owner(name));
        this.ctx.db.run(
          'UPDATE automation_globals SET deleted = 1, bytes = 0, updated_at = ? WHERE name = ?',
          this.ctx.now(),
          name,
        );
      },
      () => ({ entity_type: 'global', entity_id: name, details: { revision: expectedRevision } }),
    );
  }

  /**
   * Writes a global at the revision given, sealed, in the caller's transaction: the next revision of a
   * write, or the revision a global had in the store it was pushed from (storage/transfer).
   */
  put(summary: GlobalSummary, value: string): void {
    putChunks(this.ctx.db, owner(summary.name), this.ctx.vault.seal(value, aad(summary.name)));
    this.ctx.db.run(
      `INSERT INTO automation_globals (name, revision, bytes, updated_at, deleted) VALUES (?, ?, ?, ?, 0)
       ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, bytes = excluded.bytes,
         updated_at = excluded.updated_at, deleted = 0`,
      summary.name,
      summary.revision,
      summary.bytes,
      summary.updated_at,
    );
  }

  /** Live globals by name with their values opened, for `lpa team push`: the caller audits the read. */
  slice(offset: number, limit: number): PlainGlobal[] {
    return this.ctx.db
      .all<GlobalRow>(
        'SELECT * FROM automation_globals WHERE deleted = 0 ORDER BY name LIMIT ? OFFSET ?',
        limit,
        offset,
      )
      .map((row) => this.plain(row));
  }

  /** The global of this name with its value; a deleted one as `deleted` (its name is taken by its tombstone); null when there is none. */
  find(name: string): PlainGlobal | 'deleted' | null {
    const row = this.row(name);
    if (!row) return null;
    return row.deleted === 0 ? this.plain(row) : 'deleted';
  }

  private plain(row: GlobalRow): PlainGlobal {
    return {
      name: row.name,
      revision: row.revision,
      value: this.ctx.vault.open(getChunks(this.ctx.db, owner(row.name))!, aad(row.name)),
      updated_at: row.updated_at,
    };
  }

  private row(name: string): GlobalRow | undefined {
    return first<GlobalRow>(this.ctx.db, 'SELECT * FROM automation_globals WHERE name = ?', name);
  }

  private live(name: string): GlobalRow | undefined {
    const row = this.row(name);
    return row && row.deleted === 0 ? row : undefined;
  }
}

const notFound = (name: string) => new ApiError('resource.not_found', { resource: 'global', name });
const conflict = (current: number) => new ApiError('state.revision_conflict', { current_revision: current });
