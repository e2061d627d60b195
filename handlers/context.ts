import type { Actor, Via } from '../storage/audit/entry';
import type { StoreClient } from '../storage/client';
import type { StoreFacts } from '../storage/system/schema';
import type { HostPort } from '../src/host/port';
import type { Config } from '../src/shared/config';
import type { Scope } from '../src/shared/scopes';
import type { StoreMemory } from '../src/shared/store-memory';

/** Who sent the request, once its token has been checked (src/pipeline/authenticate.ts). */
export interface Principal {
  actor: Actor;
  scopes: readonly Scope[];
  admin: boolean;
}

/** What the pipeline knows of every request, wherever it is served (an entry's front, a store's object). */
export interface FrontContext {
  requestId: string;
  /** The audit source of the request: 'cli' or 'mcp' when LPA's own clients sent it, 'api' otherwise. */
  source: string;
  clientIp: string;
  principal: Principal | null;
  /** On a team's service, the machine a team token's request came through, as it says (src/pipeline/machine.ts). */
  via?: Via;
  config: Config;
  waitUntil: (promise: Promise<unknown>) => void;
}

/** What a store's object hands every handler beside its validated input: the front's context and the store. */
export interface RequestContext extends FrontContext {
  /** What the store needs of the machine (src/host/port.ts). */
  host: HostPort;
  /** The store's families, each call a unit of work in its group commit (storage/client.ts). */
  store: StoreClient;
  /** The store's facts that change only at its start, known after the first ask (src/pipeline/served-store.ts). */
  storeFacts: () => Promise<StoreFacts>;
  /** What this store's handlers keep in memory (src/shared/store-memory.ts). */
  memory: StoreMemory;
}
