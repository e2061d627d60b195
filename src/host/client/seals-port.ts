import { AuditSeal } from '../../shared/schemas/audit-seal';
import { hostJson, type HostFetcher } from './fetcher';

export interface SealsPort {
  /** Every line of the seal record, oldest first; a line that is not a seal (a torn last write) is skipped. */
  read(): Promise<AuditSeal[]>;
  /** Appends one seal and fsyncs it; resolves only once it is on disk. */
  append(seal: AuditSeal): Promise<void>;
}

export function sealsClient(fetcher: HostFetcher): SealsPort {
  return {
    read: async () => AuditSeal.array().parse((await hostJson<{ seals: unknown }>(fetcher, '/seals')).seals),
    async append(seal) {
      await hostJson(fetcher, '/seals', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seal) });
    },
  };
}
