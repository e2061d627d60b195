import { type ProxyCheck, proxyName, type ProxyUpstream } from '../../src/shared/schemas/proxy';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import { openField, sealField } from '../vault';
import type { Profile, ProxyInput } from './schema';

/** The associated data of a sealed proxy password: it opens only as this profile's. */
const aad = (profileId: string) => `profile_proxy:${profileId}:password`;

/** The stored columns of a profile's proxy. */
interface ProxyColumns {
  proxy: string | null;
  proxy_password: string | null;
}

/**
 * Writes a profile's proxy in the caller's transaction, its password sealed by the vault exactly as a
 * platform account's is, and appends its own audit entry (`profiles.proxy_write`, category `proxy`):
 * which proxy, whether a password is stored, never the password. A `password` left out keeps the
 * stored one; null removes the proxy and its password.
 */
export function writeProxy(ctx: StoreContext, audit: AuditContext, profile: Profile, input: ProxyInput | null): void {
  const stored = first<ProxyColumns>(ctx.db, 'SELECT proxy, proxy_password FROM profiles WHERE no = ?', profile.no)!;
  const { password, ...shown } = input ?? { password: null };
  const sealed = password === undefined ? stored.proxy_password : sealField(ctx.vault, password, aad(profile.id));
  ctx.db.run(
    'UPDATE profiles SET proxy = ?, proxy_password = ? WHERE no = ?',
    input ? JSON.stringify(shown) : null,
    input ? sealed : null,
    profile.no,
  );
  ctx.audit.append({ ...audit, action: 'profiles.proxy_write' }, 'ok', {
    entity_type: 'profile',
    entity_id: profile.id,
    entity_no: profile.no,
    details: input
      ? { proxy: proxyName(input), username: input.username, password_set: sealed !== null }
      : { proxy: null, removed: stored.proxy !== null },
  });
}

/** The profile's proxy with its password opened, for its browser's start or a check; null when it has none. */
export function proxyOf(ctx: StoreContext, profile: Profile): ProxyUpstream | null {
  const stored = first<ProxyColumns>(ctx.db, 'SELECT proxy, proxy_password FROM profiles WHERE no = ?', profile.no);
  if (!stored?.proxy) return null;
  const password =
    stored.proxy_password === null
      ? null
      : openField(ctx.vault, stored.proxy_password, aad(profile.id), {
          profile_id: profile.id,
          field: 'proxy_password',
        });
  return { ...(JSON.parse(stored.proxy) as Omit<ProxyUpstream, 'password'>), password };
}

/** A check through the profile's proxy, audited as `profiles.proxy_check` (category `proxy`): the site's origin only, since a URL's path and query may hold secrets. */
export function recordCheck(
  ctx: StoreContext,
  audit: AuditContext,
  profile: Profile,
  url: string,
  check: ProxyCheck,
): void {
  const proxy = first<ProxyColumns>(ctx.db, 'SELECT proxy FROM profiles WHERE no = ?', profile.no)?.proxy;
  ctx.change(
    audit,
    () => undefined,
    () => ({
      entity_type: 'profile',
      entity_id: profile.id,
      entity_no: profile.no,
      details: { proxy: proxy ? proxyName(JSON.parse(proxy)) : null, origin: new URL(url).origin, ...check },
    }),
  );
}

/** A profile row's proxy as the record shows it: its JSON with `password_set` (the column `proxy_shown` of ./columns.ts). */
export const PROXY_SHOWN = `CASE WHEN proxy IS NULL THEN NULL ELSE json_set(proxy, '$.password_set', json(CASE WHEN proxy_password IS NULL THEN 'false' ELSE 'true' END)) END`;
