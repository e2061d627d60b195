import { randomToken, sha256Hex } from '../../src/shared/crypto';
import type { Scope } from '../../src/shared/scopes';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { revoke } from '../revoke';
import type { CreatedToken, Token, TokenInput } from './schema';

interface TokenRow {
  id: string;
  hash: string;
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
  /**
   * The live tokens by hash, read at the first check and kept current by every create and revoke, so
   * that authenticating a token reads no SQL. It is this store's own (its object's memory), never
   * module state: a token of one store is unknown to every other. A change its transaction later
   * rolls back errs safe: a revocation undone still refuses the token until the store restarts; a
   * creation undone was never answered, so no one holds that token. Expiry is checked at use.
   */
  private live: Map<string, Token> | null = null;

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
    const hash = sha256Hex(token);
    this.ctx.change(
      audit,
      () =>
        this.ctx.db.run(
          'INSERT INTO tokens (id, name, scopes, admin, hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          record.id,
          record.name,
          JSON.stringify(record.scopes),
          record.admin ? 1 : 0,
          hash,
          record.created_at,
          record.expires_at,
        ),
      () => ({
        entity_type: 'token',
        entity_id: record.id,
        details: { name: record.name, scopes: record.scopes, admin: record.admin },
      }),
    );
    this.live?.set(hash, record);
    return { ...record, token };
  }

  list(): Token[] {
    return this.ctx.db
      .all<TokenRow>('SELECT * FROM tokens WHERE revoked_at IS NULL ORDER BY created_at, id')
      .map(toToken);
  }

  revoke(audit: AuditContext, id: string): void {
    revoke(this.ctx, audit, 'token', id);
    if (this.live) for (const [hash, token] of this.live) if (token.id === id) this.live.delete(hash);
  }

  /** The live token with this hash (not revoked, not expired at `now`), or null. */
  check(hash: string, now: number): Token | null {
    this.live ??= new Map(
      this.ctx.db
        .all<TokenRow>('SELECT * FROM tokens WHERE revoked_at IS NULL')
        .map((row) => [row.hash, toToken(row)] as const),
    );
    const token = this.live.get(hash);
    return token && (token.expires_at === null || token.expires_at > now) ? token : null;
  }
}
