import { ApiError } from '../../src/errors/api-error';
import { randomToken, sha256Hex } from '../../src/shared/crypto';
import type { Scope } from '../../src/shared/scopes';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import type { CreatedToken, Token, TokenInput } from './schema';

interface TokenRow {
  id: string;
  name: string;
  scopes: string;
  admin: number;
  created_at: number;
  expires_at: number | null;
}

const toToken = (row: TokenRow): Token => ({
  id: row.id,
  name: row.name,
  scopes: JSON.parse(row.scopes) as Scope[],
  admin: row.admin === 1,
  created_at: row.created_at,
  expires_at: row.expires_at,
});

/** API tokens. Only a token's SHA-256 is stored; its plaintext is returned once, at creation. */
export class Tokens {
  constructor(private readonly ctx: StoreContext) {}

  create(audit: AuditContext, input: TokenInput): CreatedToken {
    const token = randomToken('lpa_');
    const now = this.ctx.now();
    const record: Token = {
      id: crypto.randomUUID(),
      name: input.name,
      scopes: input.scopes,
      admin: input.admin ?? false,
      created_at: now,
      expires_at: input.expires_in_minutes === undefined ? null : now + input.expires_in_minutes * 60_000,
    };
    this.ctx.change(
      audit,
      () =>
        this.ctx.db.run(
          'INSERT INTO tokens (id, name, scopes, admin, hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          record.id, record.name, JSON.stringify(record.scopes), record.admin ? 1 : 0, sha256Hex(token),
          record.created_at, record.expires_at,
        ),
      () => ({ entity_type: 'token', entity_id: record.id, details: { name: record.name, scopes: record.scopes, admin: record.admin } }),
    );
    return { ...record, token };
  }

  list(): Token[] {
    return this.ctx.db
      .all<TokenRow>('SELECT * FROM tokens WHERE revoked_at IS NULL ORDER BY created_at, id')
      .map(toToken);
  }

  revoke(audit: AuditContext, id: string): void {
    this.ctx.change(
      audit,
      () => {
        if (this.ctx.db.run('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', this.ctx.now(), id) === 0) {
          throw new ApiError('resource.not_found', { resource: 'token', id });
        }
      },
      () => ({ entity_type: 'token', entity_id: id }),
    );
  }

  /** The live token with this hash: not revoked and not expired. */
  findActive(hash: string): Token | null {
    const row = first<TokenRow>(
      this.ctx.db,
      'SELECT * FROM tokens WHERE hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
      hash, this.ctx.now(),
    );
    return row ? toToken(row) : null;
  }
}
