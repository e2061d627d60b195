import type { LogRecord } from '../../src/shared/logs/line';
import type { JobReport } from './daily-job';

/** The `jobs` log's lines for one daily run: one per job with what it reported, then a summary. */
export function jobLogRecords(reports: readonly JobReport[], startedAt: number): LogRecord[] {
  const ts = Date.now();
  const failed = reports.filter((report) => !report.ok).length;
  return [
    ...reports.map(
      (report): LogRecord => ({
        ts,
        level: report.ok ? 'info' : 'error',
        message: `job ${report.name} ${report.ok ? 'done' : 'failed'}`,
        fields: report.result,
      }),
    ),
    {
      ts,
      level: failed === 0 ? 'info' : 'warn',
      message: 'daily run finished',
      fields: { jobs: reports.length, failed, duration_ms: ts - startedAt },
    },
  ];
}
