import { useEffect, useState } from 'preact/hooks';
import type { Api, Query } from '../api';
import type { AuditCheckpoint, AuditEntry, AuditExport, AuditList, AuditRetention, AuditVerification } from '../api-types';
import { AuditChart } from '../audit-chart';
import { countPerDay, windowStart, type DayCount } from '../audit-days';
import { AUDIT_CATEGORIES, AUDIT_RESULTS, AUDIT_TEXT_FILTERS, auditFilters } from '../audit-query';
import { Busy, ErrorNote, Facts, Section, Show } from '../components';
import { base64ToBytes, saveFile } from '../files';
import { time } from '../format';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

const PAGE_SIZE = 50;
/** The chart reads at most this many entries (in pages of 1000): enough for weeks of a busy machine, and said when cut. */
const CHART_MAX_ENTRIES = 20_000;

export function AuditPage({ api }: { api: Api }) {
  const [filters, setFilters] = useState<Query>({});
  const retention = useLoad(() => api.get<AuditRetention>('/api/v1/settings/audit'), 'retention');
  return (
    <>
      <Section title="Filters">
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters(auditFilters(new FormData(event.currentTarget as HTMLFormElement)));
          }}
        >
          <label>
            Result
            <select name="result">
              <option value="">any</option>
              {AUDIT_RESULTS.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
          <label>
            Category
            <select name="category">
              <option value="">any</option>
              {AUDIT_CATEGORIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          {AUDIT_TEXT_FILTERS.map((name) => (
            <label key={name}>
              {name.replace('_', ' ')}
              <input name={name} maxLength={name === 'search' ? 200 : 100} />
            </label>
          ))}
          <label>
            From (UTC day)
            <input name="from" type="date" />
          </label>
          <label>
            To (UTC day)
            <input name="to" type="date" />
          </label>
          <button type="submit">Filter</button>
        </form>
      </Section>
      <Entries api={api} filters={filters} />
      <Verify api={api} entries={retention.data?.entries} />
      <Checkpoint api={api} />
      <Export api={api} filters={filters} />
      <Section title="Entries per day">
        <Show loaded={retention} label="the retention window">
          {(r) => <PerDay api={api} retention={r} />}
        </Show>
      </Section>
    </>
  );
}

function Entries({ api, filters }: { api: Api; filters: Query }) {
  const key = JSON.stringify(filters);
  const first = useLoad(() => api.get<AuditList>('/api/v1/audit', { ...filters, limit: PAGE_SIZE }), key);
  const [more, setMore] = useState<{ key: string; items: AuditEntry[]; next: number | null }>();
  const older = useAction();
  const extra = more?.key === key ? more : undefined;
  const items = [...(first.data?.items ?? []), ...(extra?.items ?? [])];
  const next = extra ? extra.next : (first.data?.next_before_seq ?? null);

  const loadOlder = () =>
    older.run(async () => {
      const page = await api.get<AuditList>('/api/v1/audit', { ...filters, limit: PAGE_SIZE, before_seq: next });
      setMore({ key, items: [...(extra?.items ?? []), ...page.items], next: page.next_before_seq });
    });

  return (
    <Section title="Entries">
      <Show loaded={first} label="audit entries">
        {() =>
          items.length === 0 ? (
            <p>No entry matches.</p>
          ) : (
            <>
              <div class="table-wrap" tabIndex={0} role="group" aria-label="Table (scrolls sideways)">
                <table>
                  <thead>
                    <tr>
                      {['Seq', 'Time', 'Actor', 'Source', 'Action', 'Entity', 'Result', 'Error'].map((h) => (
                        <th key={h} scope="col">
                          {h}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((e) => (
                      <tr key={e.seq}>
                        <td>{e.seq}</td>
                        <td>{time(e.ts)}</td>
                        <td>
                          {e.actor_label} <span class="muted">({e.actor_type})</span>
                        </td>
                        <td>{e.source}</td>
                        <td>{e.action}</td>
                        <td>{[e.entity_type, e.entity_no ?? e.entity_id].filter((v) => v !== null).join(' ')}</td>
                        <td>
                          <span class={`badge ${e.result}`}>{e.result}</span>
                        </td>
                        <td>{e.error_code && <code>{e.error_code}</code>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div class="actions">
                {next !== null && (
                  <button type="button" class="quiet" disabled={older.busy} onClick={loadOlder}>
                    Load older entries
                  </button>
                )}
                <span class="muted">{items.length} shown</span>
              </div>
              {older.busy && <Busy label="Loading older entries" />}
              <ErrorNote error={older.error} />
            </>
          )
        }
      </Show>
    </Section>
  );
}

function Verify({ api, entries }: { api: Api; entries: number | undefined }) {
  const run = useAction();
  const [verdict, setVerdict] = useState<AuditVerification | null>(null);
  return (
    <Section title="Verify">
      <p class="muted">Recomputes the hash chain and checks the signed daily anchors, on the service.</p>
      <button
        type="button"
        disabled={run.busy}
        onClick={() =>
          run.run(async () => {
            setVerdict(null);
            setVerdict(await api.get<AuditVerification>('/api/v1/audit/verify'));
          })
        }
      >
        Verify
      </button>
      {run.busy && <Busy label={entries === undefined ? 'Verifying the chain' : `Verifying the chain of ${entries} entries`} />}
      <ErrorNote error={run.error} />
      {verdict && (
        <div class={`note ${verdict.ok ? 'ok' : 'error'}`} role="status" aria-label="Verification result">
          {verdict.ok ? (
            <p>
              <strong>ok</strong>: the chain is intact ({verdict.checked} entries, {verdict.anchors} daily anchors checked).
            </p>
          ) : (
            <p>
              <strong>Broken.</strong>
              {verdict.first_bad_seq !== null && (
                <>
                  {' '}
                  The first bad entry is sequence number <strong data-first-bad-seq>{verdict.first_bad_seq}</strong>: its recomputed hash does not match the
                  chain.
                </>
              )}
              {verdict.missing_anchor !== null && <> The daily anchor of {verdict.missing_anchor} is missing or does not match.</>}{' '}
              ({verdict.checked} entries, {verdict.anchors} anchors checked.)
            </p>
          )}
        </div>
      )}
    </Section>
  );
}

function Checkpoint({ api }: { api: Api }) {
  const checkpoint = useLoad(() => api.get<AuditCheckpoint>('/api/v1/audit/checkpoint'), 'checkpoint');
  return (
    <Section title="Signed checkpoint">
      <Show loaded={checkpoint} label="the checkpoint">
        {(c) => (
          <Facts
            items={[
              ['Sequence number', String(c.seq)],
              ['Signed at', time(c.ts)],
              ['Key id', <code>{c.key_id}</code>],
              ['Chain hash', <code>{c.hash}</code>],
              ['Signature (Ed25519)', <code>{c.signature}</code>],
              ['Store id', <code>{c.store_id}</code>],
            ]}
          />
        )}
      </Show>
      <button type="button" class="quiet" onClick={checkpoint.reload} disabled={checkpoint.busy}>
        Sign a new checkpoint
      </button>
    </Section>
  );
}

function Export({ api, filters }: { api: Api; filters: Query }) {
  const run = useAction();
  const [format, setFormat] = useState<'csv' | 'jsonl'>('jsonl');
  const [done, setDone] = useState('');
  return (
    <Section title="Export">
      <div class="actions">
        <label>
          Format{' '}
          <select value={format} onChange={(event) => setFormat((event.currentTarget as HTMLSelectElement).value as 'csv' | 'jsonl')}>
            <option value="jsonl">JSONL</option>
            <option value="csv">CSV</option>
          </select>
        </label>
        <button
          type="button"
          disabled={run.busy}
          onClick={() =>
            run.run(async () => {
              setDone('');
              const file = await api.get<AuditExport>('/api/v1/audit/export', { ...filters, format });
              saveFile(file.file_name, base64ToBytes(file.content_base64), format === 'csv' ? 'text/csv' : 'application/jsonl');
              setDone(`Exported ${file.count} entries as ${file.file_name}.`);
            })
          }
        >
          Download export
        </button>
      </div>
      <p class="muted">The export takes the filters above. JSONL carries the hashes and signed anchors: <code>lpa audit verify-file</code> checks it offline.</p>
      {run.busy && <Busy label="Exporting" />}
      <ErrorNote error={run.error} />
      <p role="status">{done}</p>
    </Section>
  );
}

/** Reads the window's entries page by page, with progress, then counts them per day. */
function PerDay({ api, retention }: { api: Api; retention: AuditRetention }) {
  const [state, setState] = useState<{ read: number; days?: DayCount[]; cut?: boolean; error?: unknown }>({ read: 0 });
  const expected = Math.min(retention.entries, CHART_MAX_ENTRIES);
  useEffect(() => {
    let stopped = false;
    const now = Date.now();
    const from = windowStart(retention.retention_days, now);
    (async () => {
      const entries: AuditEntry[] = [];
      let before: number | null = null;
      do {
        const page: AuditList = await api.get<AuditList>('/api/v1/audit', { from, limit: 1000, before_seq: before });
        if (stopped) return;
        entries.push(...page.items);
        before = page.next_before_seq;
        setState({ read: entries.length });
      } while (before !== null && entries.length < CHART_MAX_ENTRIES);
      setState({ read: entries.length, days: countPerDay(entries, retention.retention_days, now), cut: before !== null });
    })().catch((error: unknown) => !stopped && setState((s) => ({ ...s, error })));
    return () => void (stopped = true);
  }, [api, retention.retention_days, retention.entries]);

  if (state.error) return <ErrorNote error={state.error} />;
  if (!state.days) return <Busy label={`Reading entries for the chart: ${state.read} of about ${expected}`} value={state.read} max={Math.max(expected, 1)} />;
  return (
    <>
      <AuditChart days={state.days} />
      {state.cut && <p class="muted">Only the newest {state.read} entries are counted.</p>}
    </>
  );
}
