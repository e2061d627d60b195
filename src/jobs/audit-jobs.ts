import type { DailyJob } from './daily-job';

/** Sealing comes first, so a day is anchored before retention could take any of it. */
export const AUDIT_JOBS: readonly DailyJob[] = [
  { name: 'audit.seal', run: (store, _host, now) => ({ sealed: store.audit.seal(now) }) },
  {
    name: 'audit.retention',
    run: (store, _host, now) => ({ ...store.audit.purge(now, store.settings.auditRetention().retention_days) }),
  },
];
