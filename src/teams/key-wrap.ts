import { Vault } from '../../storage/vault';
import type { KeyName } from '../host/operations';
import { fromBase64 } from '../shared/base64';

const KEY_BYTES = 32;

/** The key-encryption key of the team service, parsed: only `parseWrapKey` makes one. */
export interface WrapKey {
  readonly sealer: Vault;
}

/** Which key of which team a wrapped key is: bound into its ciphertext, so that it opens as that key only. */
export interface WrappedKeyId {
  teamId: string;
  name: KeyName;
}

/**
 * The key-encryption key from the secret `LPA_KEY_WRAP_KEY`: exactly 32 bytes in standard base64
 * (`openssl rand -base64 32`). White space around it is dropped, as a secret pasted or read from a
 * file often ends in a newline; anything else that is not 32 bytes is refused with a message that
 * says what is expected, and never repeats the value.
 */
export function parseWrapKey(text: string): WrapKey {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(text.trim());
  } catch {
    throw new Error(
      'LPA_KEY_WRAP_KEY is not base64: it must be 32 random bytes in standard base64, e.g. the output of `openssl rand -base64 32`',
    );
  }
  if (bytes.length !== KEY_BYTES) {
    throw new Error(
      `LPA_KEY_WRAP_KEY holds ${bytes.length} bytes: it must be exactly ${KEY_BYTES} random bytes in standard base64 (44 characters)`,
    );
  }
  return { sealer: Vault.unlocked(bytes) };
}

/**
 * A team's key (its vault key, audit HMAC key or signing seed), sealed under the key-encryption key
 * as the vault seals a secret: AES-256-GCM with a random 96-bit nonce, `v1.<base64 of nonce,
 * ciphertext and tag>`. The team and the key's name are its associated data, so a wrapped key copied
 * to another team, or into another key's place, does not open.
 */
export function wrapKey(kek: WrapKey, id: WrappedKeyId, key: Uint8Array): string {
  if (key.length !== KEY_BYTES) throw new Error(`a team key is ${KEY_BYTES} bytes, not ${key.length}`);
  return kek.sealer.seal(key, associatedData(id));
}

/** The key `wrapKey` wrapped; throws when it was altered, or was wrapped by another key-encryption key, for another team or key. */
export function unwrapKey(kek: WrapKey, id: WrappedKeyId, wrapped: string): Uint8Array {
  let key: Uint8Array;
  try {
    key = kek.sealer.openBytes(wrapped, associatedData(id));
  } catch {
    throw new Error(
      `the ${id.name} key of team ${id.teamId} does not unwrap: altered, or wrapped under another key-encryption key`,
    );
  }
  if (key.length !== KEY_BYTES)
    throw new Error(`the ${id.name} key of team ${id.teamId} unwrapped to ${key.length} bytes, not ${KEY_BYTES}`);
  return key;
}

const associatedData = ({ teamId, name }: WrappedKeyId) => `team-key:${JSON.stringify([teamId, name])}`;
