import { diskClient, type DiskPort } from './client/disk-port';
import type { HostFetcher } from './client/fetcher';
import { filesClient, type FilesPort } from './client/files-port';
import { keysClient, type KeysPort } from './client/keys-port';
import { logsClient, type LogsPort } from './client/logs-port';
import { sealsClient, type SealsPort } from './client/seals-port';

export type { HostFetcher } from './client/fetcher';

/**
 * What LPA needs from the machine it runs on, one concern per member. Under workerd the launcher
 * serves it (src/host/node) and the worker reaches it through a service binding; under Bun or Deno
 * the same Node handler is called in process. Nothing else in the worker touches the machine.
 */
export interface HostPort {
  disk: DiskPort;
  keys: KeysPort;
  files: FilesPort;
  logs: LogsPort;
  /** The audit's append-only seal record beside the keys. */
  seals: SealsPort;
}

export function hostClient(fetcher: HostFetcher): HostPort {
  return {
    disk: diskClient(fetcher), keys: keysClient(fetcher), files: filesClient(fetcher), logs: logsClient(fetcher), seals: sealsClient(fetcher),
  };
}
