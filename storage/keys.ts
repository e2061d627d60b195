import type { HostPort } from '../src/host/port';
import type { KeySource } from './store';

/**
 * Keys and the audit's seal record come from the host. Keys are created only together with a new
 * store (the signing key also for a store from before signed anchors): a store whose vault.key has
 * gone missing stays locked rather than silently getting a key that opens nothing, and one whose
 * audit keys have gone missing seals nothing rather than signing with a key no earlier anchor was
 * signed with.
 */
export function hostKeys(host: HostPort): KeySource {
  return async (create) => {
    const [vault, mac, signing, seals] = await Promise.allSettled([
      host.keys.read('vault', create.keys),
      host.keys.read('audit', create.keys),
      host.keys.read('audit-signing', create.signing),
      host.seals.read(),
    ]);
    const vaultKey = vault.status === 'fulfilled' ? vault.value : null;
    const vaultReason =
      vault.status === 'rejected'
        ? `vault.key could not be read: ${String(vault.reason)}`
        : vaultKey
          ? null
          : 'vault.key is missing';
    const value = <T>(settled: PromiseSettledResult<T>) => (settled.status === 'fulfilled' ? settled.value : null);
    return { vault: vaultKey, vaultReason, mac: value(mac), signing: value(signing), seals: value(seals) };
  };
}
