import type { AutomationFileListing } from '../files-schema';
import { HOST_BASE, hostJson, type HostFetcher } from './fetcher';

export interface FilesPort {
  list(): Promise<AutomationFileListing>;
  /** Writes a new file; `exists` when the name is taken, which is never replaced. */
  write(name: string, bytes: Uint8Array): Promise<'created' | 'exists'>;
  /** A file's bytes, or null when there is no such file. */
  read(name: string): Promise<Uint8Array | null>;
}

export function filesClient(fetcher: HostFetcher): FilesPort {
  const url = (name: string) => `${HOST_BASE}/files/${encodeURIComponent(name)}`;
  return {
    list: () => hostJson(fetcher, '/files'),
    async write(name, bytes) {
      const response = await fetcher.fetch(url(name), { method: 'PUT', body: bytes as Uint8Array<ArrayBuffer> });
      if (response.status === 409) return 'exists';
      if (response.status !== 201) throw new Error(`host PUT /files: HTTP ${response.status}`);
      return 'created';
    },
    async read(name) {
      const response = await fetcher.fetch(url(name));
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`host GET /files: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}
