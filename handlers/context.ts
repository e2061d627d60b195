import type { Actor, Via } from '../storage/audit/entry';
import type { StoreClient } from '../storage/client';
import type { StoreFacts } from '../storage/system/schema';
import type { HostPort } from '../src/host/port';
import type { Config } from '../src/shared/config';
import type { Scope } from '../src/shared/scopes';

/** Who sent the request, once its token has been checked (src/pipeline/authenticate.ts). */
export interface Principal {
  actor: Actor;
  scopes: readonly Scope[];
  admin: boolean;
}

/** What the pipeline hands every handler beside its validated input. */
export interface RequestContext {
  requestId: string;
  /** The audit source of the request: 'cli' or 'mcp' when LPA's own clients sent it, 'api' otherwise. */
  source: string;
  clientIp: string;
  principal: Principal | null;
  /** On a team's service, the machine a team token's request came through, as it says (src/pipeline/machine.ts). */
  via?: Via;
  config: Config;
  /** The store; on an audited route, its calls carry their failure's audit entry (storage/dispatch.ts). */
  store: StoreClient;
  /** The store's facts that change only at its start, known after the first ask (src/pipeline/store-facts.ts). */
  storeFacts: () => Promise<StoreFacts>;
  host: HostPort;
  waitUntil: (promise: Promise<unknown>) => void;
}
