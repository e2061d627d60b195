import { randomToken, sha256Hex } from '../../src/shared/crypto';
import type { Scope } from '../../src/shared/scopes';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { revoke } from '../revoke';
import { first } from '../sql/sql';
import type { CreatedToken, Token, TokenInput } from './schema';
import { thisIsolate, tokenCache, type TokenCache } from './shared-cache';

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
  /** The worker's token cache this store keeps current, once it is the served store (`shareLiveTokens`). */
  private cache: TokenCache | null = null;

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
    this.cache?.added(hash, record);
    return { ...record, token };
  }

  list(): Token[] {
    return this.ctx.db
      .all<TokenRow>('SELECT * FROM tokens WHERE revoked_at IS NULL ORDER BY created_at, id')
      .map(toToken);
  }

  revoke(audit: AuditContext, id: string): void {
    revoke(this.ctx, audit, 'token', id);
    this.cache?.revoked(id);
  }

  /** Fills the worker's token cache of the store named `storeKey` (storage/tokens/shared-cache.ts); only the served store does. */
  shareLiveTokens(storeKey: string): void {
    const rows = this.ctx.db.all<TokenRow>('SELECT * FROM tokens WHERE revoked_at IS NULL');
    this.cache = tokenCache(storeKey);
    this.cache.fill(rows.map((row) => [row.hash, toToken(row)]));
  }

  /**
   * The live token with this hash (not revoked, not expired), and the id of this module instance, by
   * which the worker learns whether it shares the token cache with the store.
   */
  check(hash: string): { token: Token | null; isolate: string } {
    const row = first<TokenRow>(
      this.ctx.db,
      'SELECT * FROM tokens WHERE hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
      hash,
      this.ctx.now(),
    );
    return { token: row ? toToken(row) : null, isolate: thisIsolate() };
  }
}
