import type { HostPort } from '../host/port';
import type { KeySource } from '../../storage/store';

/**
 * Keys come from the host. They are created only together with a new store: a store whose
 * vault.key has gone missing stays locked rather than silently getting a key that opens nothing.
 */
export function hostKeys(host: HostPort): KeySource {
  return async (create) => {
    const [vault, audit] = await Promise.allSettled([host.keys.read('vault', create), host.keys.read('audit', create)]);
    const vaultKey = vault.status === 'fulfilled' ? vault.value : null;
    const vaultReason =
      vault.status === 'rejected' ? `vault.key could not be read: ${String(vault.reason)}` : vaultKey ? null : 'vault.key is missing';
    return { vault: vaultKey, vaultReason, audit: audit.status === 'fulfilled' ? audit.value : null };
  };
}
