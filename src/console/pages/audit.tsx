import { useEffect, useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { AuditChart } from '../audit-chart';
import { countPerDay, windowStart, type DayCount } from '../audit-days';
import { AUDIT_CATEGORIES, AUDIT_RESULTS, AUDIT_TEXT_FILTERS, auditFilters, type AuditFilters } from '../audit-query';
import { Form, Select } from '../components/form';
import { ActionNote, Busy, ErrorNote } from '../components/notes';
import { RetentionForm } from '../components/retention';
import { Facts, FactsSection, Section, Show } from '../components/section';
import { Table } from '../components/table';
import { base64ToBytes, saveFile } from '../files';
import { time } from '../format';
import { useMay } from '../may';
import { useAction } from '../use-action';
import { useLoad, type Loaded } from '../use-load';
import { TeamLink } from './team-link';

const PAGE_SIZE = 50;
/** The chart reads at most this many entries (in pages of 1000): enough for weeks of a busy machine, and said when cut. */
const CHART_MAX_ENTRIES = 20_000;

type AuditList = Answer<'GET', '/api/v1/audit'>;
type AuditEntry = AuditList['items'][number];
type AuditRetention = Answer<'GET', '/api/v1/settings/audit'>;

export function AuditPage({ api }: { api: Api }) {
  const [filters, setFilters] = useState<AuditFilters>({});
  const retention = useLoad(() => api.call('GET', '/api/v1/settings/audit'), 'retention');
  const may = useMay();
  return (
    <>
      <Section title="Filters">
        <Form class="inline" onSubmit={(fields) => setFilters(auditFilters(fields))}>
          <Select label="Result" name="result" blank="any" options={AUDIT_RESULTS} />
          <Select label="Category" name="category" blank="any" options={AUDIT_CATEGORIES} />
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
        </Form>
      </Section>
      <Entries api={api} filters={filters} />
      {may('GET', '/api/v1/audit/verify') && <Verify api={api} entries={retention.data?.entries} />}
      <Checkpoint api={api} />
      <PublicKey api={api} />
      {may('GET', '/api/v1/audit/export') && <Export api={api} filters={filters} />}
      <Section title="Entries per day">
        <Show loaded={retention} label="the retention window">
          {(r) => <PerDay api={api} retention={r} />}
        </Show>
      </Section>
      <Retention api={api} retention={retention} />
      <TeamLink api={api} />
    </>
  );
}

function Entries({ api, filters }: { api: Api; filters: AuditFilters }) {
  const key = JSON.stringify(filters);
  const first = useLoad(() => api.call('GET', '/api/v1/audit', { query: { ...filters, limit: PAGE_SIZE } }), key);
  const [more, setMore] = useState<{ key: string; items: AuditEntry[]; next: number | null }>();
  const [opened, setOpened] = useState<AuditEntry | null>(null);
  const older = useAction();
  const extra = more?.key === key ? more : undefined;
  const items = [...(first.data?.items ?? []), ...(extra?.items ?? [])];
  const next = extra ? extra.next : (first.data?.next_before_seq ?? null);

  const loadOlder = () =>
    older.run(async () => {
      const page = await api.call('GET', '/api/v1/audit', {
        query: { ...filters, limit: PAGE_SIZE, before_seq: next },
      });
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
              <Table
                columns={['Seq', 'Time', 'Actor', 'Source', 'Action', 'Entity', 'Result', 'Error']}
                rows={items}
                rowKey={(e) => e.seq}
                cells={(e) => [
                  e.seq,
                  time(e.ts),
                  <>
                    {e.actor_label} <span class="muted">({e.actor_type})</span>
                  </>,
                  e.source,
                  e.action,
                  [e.entity_type, e.entity_no ?? e.entity_id].filter((v) => v !== null).join(' '),
                  <span class={`badge ${e.result}`}>{e.result}</span>,
                  e.error_code && <code>{e.error_code}</code>,
                ]}
                actions={(e) => (
                  <button
                    type="button"
                    class="quiet"
                    aria-expanded={opened?.seq === e.seq}
                    onClick={() => setOpened(opened?.seq === e.seq ? null : e)}
                  >
                    Details of entry {e.seq}
                  </button>
                )}
              />
              {opened && <EntryDetails entry={opened} onClose={() => setOpened(null)} />}
              <div class="actions">
                {next !== null && (
                  <button type="button" class="quiet" disabled={older.busy} onClick={loadOlder}>
                    Load older entries
                  </button>
                )}
                <span class="muted">{items.length} shown</span>
              </div>
              <ActionNote action={older} busy="Loading older entries" />
            </>
          )
        }
      </Show>
    </Section>
  );
}

/** One entry in full: what the table leaves out, and its `details` as the API stored them. */
function EntryDetails({ entry, onClose }: { entry: AuditEntry; onClose: () => void }) {
  return (
    <div role="region" aria-label={`Entry ${entry.seq}`}>
      <h3>Entry {entry.seq}</h3>
      <Facts
        items={[
          ['Entry id', <code>{entry.id}</code>],
          ['Actor id', entry.actor_id ? <code>{entry.actor_id}</code> : 'none'],
          ['Entity id', entry.entity_id ? <code>{entry.entity_id}</code> : 'none'],
          ['Request id', entry.request_id ? <code>{entry.request_id}</code> : 'none'],
        ]}
      />
      {entry.details === null ? (
        <p>No details.</p>
      ) : (
        <pre tabIndex={0} aria-label="Details" data-details>
          {JSON.stringify(entry.details, null, 2)}
        </pre>
      )}
      <button type="button" class="quiet" onClick={onClose}>
        Close entry {entry.seq}
      </button>
    </div>
  );
}

function Verify({ api, entries }: { api: Api; entries: number | undefined }) {
  const run = useAction();
  const [verdict, setVerdict] = useState<Answer<'GET', '/api/v1/audit/verify'> | null>(null);
  return (
    <Section title="Verify">
      <p class="muted">Recomputes the hash chain and checks the signed daily anchors, on the service.</p>
      <button
        type="button"
        disabled={run.busy}
        onClick={() =>
          run.run(async () => {
            setVerdict(null);
            setVerdict(await api.call('GET', '/api/v1/audit/verify'));
          })
        }
      >
        Verify
      </button>
      <ActionNote
        action={run}
        busy={entries === undefined ? 'Verifying the chain' : `Verifying the chain of ${entries} entries`}
      />
      {verdict && (
        <div class={`note ${verdict.ok ? 'ok' : 'error'}`} role="status" aria-label="Verification result">
          {verdict.ok ? (
            <p>
              <strong>ok</strong>: the chain is intact ({verdict.checked} entries, {verdict.anchors} daily anchors
              checked).
            </p>
          ) : (
            <p>
              <strong>Broken.</strong>
              {verdict.first_bad_seq !== null && (
                <>
                  {' '}
                  The first bad entry is sequence number <strong data-first-bad-seq>{verdict.first_bad_seq}</strong>:
                  its recomputed hash does not match the chain.
                </>
              )}
              {verdict.missing_anchor !== null && (
                <> The daily anchor of {verdict.missing_anchor} is missing or does not match.</>
              )}{' '}
              ({verdict.checked} entries, {verdict.anchors} anchors checked.)
            </p>
          )}
        </div>
      )}
    </Section>
  );
}

function Checkpoint({ api }: { api: Api }) {
  const checkpoint = useLoad(() => api.call('GET', '/api/v1/audit/checkpoint'), 'checkpoint');
  return (
    <FactsSection
      title="Signed checkpoint"
      loaded={checkpoint}
      label="the checkpoint"
      facts={(c) => [
        ['Sequence number', String(c.seq)],
        ['Signed at', time(c.ts)],
        ['Key id', <code>{c.key_id}</code>],
        ['Chain hash', <code>{c.hash}</code>],
        ['Signature (Ed25519)', <code>{c.signature}</code>],
        ['Store id', <code>{c.store_id}</code>],
      ]}
    >
      <div class="actions">
        <button type="button" class="quiet" onClick={checkpoint.reload} disabled={checkpoint.busy}>
          Sign a new checkpoint
        </button>
        {checkpoint.data && (
          <button
            type="button"
            class="quiet"
            onClick={() =>
              checkpoint.data &&
              saveFile(
                `lpa-checkpoint-${checkpoint.data.seq}.json`,
                `${JSON.stringify(checkpoint.data, null, 2)}\n`,
                'application/json',
              )
            }
          >
            Download checkpoint
          </button>
        )}
      </div>
    </FactsSection>
  );
}

/** The key that verifies the anchors and checkpoints, as the PEM file `lpa audit verify-file --public-key` takes. */
function PublicKey({ api }: { api: Api }) {
  const key = useLoad(() => api.call('GET', '/api/v1/audit/public-key'), 'public-key');
  return (
    <FactsSection
      title="Public key"
      loaded={key}
      label="the public key"
      facts={(k) => [
        ['Key id', <code>{k.key_id}</code>],
        ['Algorithm', k.algorithm],
      ]}
    >
      {key.data && (
        <button
          type="button"
          class="quiet"
          onClick={() =>
            key.data &&
            saveFile(`lpa-audit-${key.data.key_id.slice(0, 16)}.pem`, key.data.public_key_pem, 'application/x-pem-file')
          }
        >
          Download the public key
        </button>
      )}
      <p class="muted">
        With it, <code>lpa audit verify-file --public-key &lt;file&gt;</code> checks an export offline, and{' '}
        <code>--checkpoint</code> a checkpoint downloaded above.
      </p>
    </FactsSection>
  );
}

function Retention({ api, retention }: { api: Api; retention: Loaded<AuditRetention> }) {
  const may = useMay();
  return (
    <Section title="Retention">
      <Show loaded={retention} label="the audit retention">
        {(r) => (
          <>
            <p class="muted">
              {r.entries} entries kept; the oldest from {time(r.oldest_ts)}. The daily job deletes entries older than
              the retention.
            </p>
            <RetentionForm
              label="Audit retention"
              allowed={may('PUT', '/api/v1/settings/audit')}
              fields={[{ name: 'retention_days', label: 'Audit entries', value: r.retention_days }]}
              save={(body) => api.call('PUT', '/api/v1/settings/audit', { body }).then(retention.reload)}
            />
          </>
        )}
      </Show>
    </Section>
  );
}

function Export({ api, filters }: { api: Api; filters: AuditFilters }) {
  const run = useAction();
  const [format, setFormat] = useState<'csv' | 'jsonl'>('jsonl');
  const [done, setDone] = useState('');
  return (
    <Section title="Export">
      <div class="actions">
        <Select
          label="Format"
          value={format}
          onChange={(value) => setFormat(value as 'csv' | 'jsonl')}
          options={[
            ['jsonl', 'JSONL'],
            ['csv', 'CSV'],
          ]}
        />
        <button
          type="button"
          disabled={run.busy}
          onClick={() =>
            run.run(async () => {
              setDone('');
              const file = await api.call('GET', '/api/v1/audit/export', { query: { ...filters, format } });
              saveFile(
                file.file_name,
                base64ToBytes(file.content_base64),
                format === 'csv' ? 'text/csv' : 'application/jsonl',
              );
              setDone(`Exported ${file.count} entries as ${file.file_name}.`);
            })
          }
        >
          Download export
        </button>
      </div>
      <p class="muted">
        The export takes the filters above. JSONL carries the hashes and signed anchors:{' '}
        <code>lpa audit verify-file</code> checks it offline.
      </p>
      <ActionNote action={run} busy="Exporting" />
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
        const page: AuditList = await api.call('GET', '/api/v1/audit', {
          query: { from, limit: 1000, before_seq: before },
        });
        if (stopped) return;
        entries.push(...page.items);
        before = page.next_before_seq;
        setState({ read: entries.length });
      } while (before !== null && entries.length < CHART_MAX_ENTRIES);
      setState({
        read: entries.length,
        days: countPerDay(entries, retention.retention_days, now),
        cut: before !== null,
      });
    })().catch((error: unknown) => !stopped && setState((s) => ({ ...s, error })));
    return () => void (stopped = true);
  }, [api, retention.retention_days, retention.entries]);

  if (state.error) return <ErrorNote error={state.error} />;
  if (!state.days)
    return (
      <Busy
        label={`Reading entries for the chart: ${state.read} of about ${expected}`}
        value={state.read}
        max={Math.max(expected, 1)}
      />
    );
  return (
    <>
      <AuditChart days={state.days} />
      {state.cut && <p class="muted">Only the newest {state.read} entries are counted.</p>}
    </>
  );
}
