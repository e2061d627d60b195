import { hostJson, type HostFetcher } from './fetcher';

export interface DiskPort {
  /** Free bytes on the data root's file system, for an unprivileged user. */
  free(): Promise<number>;
}

export function diskClient(fetcher: HostFetcher): DiskPort {
  return { free: async () => (await hostJson<{ free_bytes: number }>(fetcher, '/disk')).free_bytes };
}
