import { inStore } from './store';

const cellText = (cell: unknown): string =>
  cell instanceof ArrayBuffer ? new TextDecoder().decode(cell) : cell === null ? '' : String(cell);

/** The tables of the store whose cells hold `needle` in plain text, audit log included. */
export function tablesHolding(needle: string): Promise<string[]> {
  return inStore(({ sql }) => {
    const tables = sql
      .exec<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'`,
      )
      .toArray()
      .map((t) => t.name);
    return tables.filter((table) =>
      sql
        .exec(`SELECT * FROM "${table}"`)
        .toArray()
        .some((row) => Object.values(row).some((cell) => cellText(cell).includes(needle))),
    );
  });
}

export interface StoredAuditEntry {
  action: string;
  category: string;
  result: string;
  entity_type: string | null;
  entity_id: string | null;
  error_code: string | null;
  details: Record<string, unknown> | null;
}

/** Audit entries of one action about one entity, oldest first. */
export function auditOf(action: string, entityId: string): Promise<StoredAuditEntry[]> {
  return inStore(({ sql }) =>
    sql
      .exec<Record<string, string | null>>(
        'SELECT action, category, result, entity_type, entity_id, error_code, details FROM audit_log WHERE action = ? AND entity_id = ? ORDER BY seq',
        action,
        entityId,
      )
      .toArray()
      .map((row) => ({ ...row, details: row.details === null ? null : JSON.parse(row.details!) }) as StoredAuditEntry),
  );
}
