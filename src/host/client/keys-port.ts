import { fromBase64 } from '../../shared/base64';
import { HOST_BASE, type HostFetcher } from './fetcher';

/** The key files of the data root, `<name>.key`: each 32 random bytes, base64. */
export type KeyName = 'vault' | 'audit' | 'audit-signing';

export interface KeysPort {
  /** Reads a key file of the data root; with `create`, makes it first (256 random bits, mode 0600) when absent. */
  read(name: KeyName, create: boolean): Promise<Uint8Array | null>;
}

export function keysClient(fetcher: HostFetcher): KeysPort {
  return {
    async read(name, create) {
      const response = await fetcher.fetch(`${HOST_BASE}/keys/${name}`, { method: create ? 'POST' : 'GET' });
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`host key ${name}: HTTP ${response.status}`);
      return fromBase64(((await response.json()) as { key: string }).key);
    },
  };
}
