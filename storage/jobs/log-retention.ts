import { LOG_STREAMS, type LogStream } from '../../src/shared/logs/streams';
import type { DailyJob } from './daily-job';

/**
 * Deletes log files older than the retention settings: `kernel` by `kernel_retention_days`, the
 * other streams by `retention_days`. A file's age is that of its last modification, the one date
 * every file has, whoever named it; a daily file is removed only once nothing was written to it for that long.
 * The host measures that age by its own clock, which stamped the times, not by the run's `now`.
 */
export const logRetentionJob: DailyJob = {
  name: 'logs.retention',
  async run(store, host) {
    const { retention_days, kernel_retention_days } = store.settings.logRetention();
    const maxAgeDays = Object.fromEntries(
      LOG_STREAMS.map((stream) => [stream, stream === 'kernel' ? kernel_retention_days : retention_days]),
    ) as Record<LogStream, number>;
    const { removed, failed } = await host.logs.cleanup(maxAgeDays);
    return {
      retention_days,
      kernel_retention_days,
      removed: removed.map((entry) => `${entry.stream}/${entry.file}`),
      removed_bytes: removed.reduce((sum, entry) => sum + entry.size, 0),
      failed: failed.map((entry) => `${entry.stream}/${entry.file}: ${entry.error}`),
    };
  },
};
