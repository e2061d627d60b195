import { sealFinishedDay } from './audit-seal';
import type { DailyJob } from './daily-job';

/** Sealing comes first, so a day is anchored before retention could take any of it. */
export const AUDIT_JOBS: readonly DailyJob[] = [
  { name: 'audit.seal', run: async (store, host, now) => ({ ...(await sealFinishedDay(store, host, now)) }) },
  {
    name: 'audit.retention',
    run: (store, _host, now) => ({ ...store.audit.purge(now, store.settings.auditRetention().retention_days) }),
  },
];
