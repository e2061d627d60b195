import { unwrapKey, wrapKey, type WrapKey } from './key-wrap';
import type { TeamKeys } from './team-host';
import type { TeamId } from './team-id';

/**
 * A team's keys (vault, audit HMAC, audit signing), kept in its Durable Object's own storage and
 * only wrapped by the key-encryption key of the secret `LPA_KEY_WRAP_KEY` (./key-wrap.ts): the
 * object's database alone opens no secret. They are made inside the object, when the team is created
 * (the store asks with `create` only while it has no schema), and never leave it.
 */
export function wrappedKeys(kv: SyncKvStorage, kek: WrapKey, teamId: TeamId): TeamKeys {
  return {
    async read(name, create) {
      const stored = kv.get<string>(`key:${name}`);
      if (stored !== undefined) return unwrapKey(kek, { teamId, name }, stored);
      if (!create) return null;
      const key = crypto.getRandomValues(new Uint8Array(32));
      kv.put(`key:${name}`, wrapKey(kek, { teamId, name }, key));
      return key;
    },
  };
}
