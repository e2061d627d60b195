import { Table } from './components/table';
import type { DayCount } from './audit-days';

const RESULTS = ['ok', 'denied', 'error'] as const;
const HEIGHT = 120;

/**
 * Entries per day as stacked bars (ok, denied, error), drawn as SVG; the same numbers as a table
 * for screen readers and for reading exact values.
 */
export function AuditChart({ days }: { days: DayCount[] }) {
  const highest = Math.max(0, ...days.map((d) => d.ok + d.denied + d.error));
  const peak = Math.max(1, highest);
  const width = Math.max(days.length * 4, 120);
  const bar = width / days.length;
  const busy = days.filter((d) => d.ok + d.denied + d.error > 0);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {days.map((day, i) => {
          let top = HEIGHT;
          return RESULTS.map((result) => {
            const h = (day[result] / peak) * HEIGHT;
            top -= h;
            return h > 0 ? (
              <rect
                key={`${day.day}-${result}`}
                class={`bar-${result}`}
                x={i * bar}
                y={top}
                width={Math.max(bar - 0.5, 0.5)}
                height={h}
              />
            ) : null;
          });
        })}
      </svg>
      <figcaption>
        Entries per day (UTC) over the last {days.length} days, by result: <span class="key-ok">ok</span>,{' '}
        <span class="key-denied">denied</span>, <span class="key-error">error</span>. Highest day: {highest}.
      </figcaption>
      <details>
        <summary>Days with entries ({busy.length})</summary>
        <Table
          columns={['Day', ...RESULTS]}
          rows={busy}
          rowKey={(day) => day.day}
          cells={(day) => [day.day, ...RESULTS.map((r) => day[r])]}
          rowHeader
        />
      </details>
    </figure>
  );
}
