import { useState } from 'preact/hooks';
import type { Api, Answer, Input } from '../api';
import { Form, Select } from '../components/form';
import { RetentionForm } from '../components/retention';
import { ActionNote } from '../components/notes';
import { Section, Show } from '../components/section';
import { Table } from '../components/table';
import { saveFile } from '../files';
import { bytes, time } from '../format';
import { excerptLines, type LogView } from '../log-view';
import { useMay } from '../may';
import { useLoad, type Loaded } from '../use-load';

/** A log file as its excerpt's route names it. */
type LogFile = Input<'GET', '/api/v1/system/logs/:stream/:file'>['params'];
type LogExcerpt = Answer<'GET', '/api/v1/system/logs/:stream/:file'>;

export function LogsPage({ api }: { api: Api }) {
  const files = useLoad(() => api.call('GET', '/api/v1/system/logs'), 'logs');
  const retention = useLoad(() => api.call('GET', '/api/v1/settings/logs'), 'retention');
  const [stream, setStream] = useState('');
  const [open, setOpen] = useState<LogFile | null>(null);
  return (
    <>
      <Section title="Log files">
        <Show loaded={files} label="log files">
          {({ items }) => {
            const streams = [...new Set(items.map((f) => f.stream))];
            const shown = items.filter((f) => stream === '' || f.stream === stream);
            return (
              <>
                <div class="actions">
                  <Select label="Stream" value={stream} onChange={setStream} blank="all" options={streams} />
                  <button type="button" class="quiet" onClick={files.reload}>
                    Refresh
                  </button>
                </div>
                <Table
                  columns={['Stream', 'File', 'Size', 'Modified']}
                  rows={shown}
                  rowKey={(f) => `${f.stream}/${f.file}`}
                  cells={(f) => [
                    f.stream,
                    <button type="button" class="link" onClick={() => setOpen({ stream: f.stream, file: f.file })}>
                      {f.stream}/{f.file}
                    </button>,
                    bytes(f.size),
                    time(f.modified_at),
                  ]}
                  empty="No log file."
                />
              </>
            );
          }}
        </Show>
      </Section>
      {open && <Excerpt key={`${open.stream}/${open.file}`} api={api} stream={open.stream} file={open.file} />}
      <Retention api={api} retention={retention} />
    </>
  );
}

/** The days each stream's files are kept. */
function Retention({ api, retention }: { api: Api; retention: Loaded<Answer<'GET', '/api/v1/settings/logs'>> }) {
  const may = useMay();
  return (
    <Section title="Retention">
      <Show loaded={retention} label="log retention">
        {(r) => (
          <RetentionForm
            label="Log retention"
            allowed={may('PUT', '/api/v1/settings/logs')}
            fields={[
              { name: 'retention_days', label: 'Program logs', value: r.retention_days },
              {
                name: 'kernel_retention_days',
                label: 'Browser-kernel logs',
                value: r.kernel_retention_days,
              },
            ]}
            save={(body) => api.call('PUT', '/api/v1/settings/logs', { body }).then(retention.reload)}
          />
        )}
      </Show>
    </Section>
  );
}

const lineNumber = (value: FormDataEntryValue | null) => {
  const n = Number(String(value ?? '').trim());
  return String(value ?? '').trim() !== '' && Number.isInteger(n) && n > 0 ? n : undefined;
};

function Excerpt({ api, stream, file }: { api: Api } & LogFile) {
  const excerpt = useLoad(
    () => api.call('GET', '/api/v1/system/logs/:stream/:file', { params: { stream, file } }),
    `${stream}/${file}`,
  );
  const [view, setView] = useState<LogView>({});
  return (
    <Section title={`Excerpt of ${stream}/${file}`}>
      <Form
        class="inline"
        label="Lines to show"
        onSubmit={(fields) =>
          setView({
            from: lineNumber(fields.get('from')),
            to: lineNumber(fields.get('to')),
            search: String(fields.get('search') ?? ''),
          })
        }
      >
        <label>
          From line
          <input name="from" type="number" min={1} inputMode="numeric" />
        </label>
        <label>
          To line
          <input name="to" type="number" min={1} inputMode="numeric" />
        </label>
        <label>
          Find
          <input name="search" type="search" />
        </label>
        <button type="submit">Show</button>
        <button type="button" class="quiet" onClick={excerpt.reload}>
          Reload
        </button>
      </Form>
      <ActionNote action={excerpt} busy="Reading the log file" />
      {excerpt.data && <ExcerptText excerpt={excerpt.data} view={view} />}
    </Section>
  );
}

function ExcerptText({ excerpt, view }: { excerpt: LogExcerpt; view: LogView }) {
  const lines = excerptLines(excerpt.text, view);
  const width = String(excerpt.lines).length;
  return (
    <>
      <p class="muted" role="status">
        {lines.length} of {excerpt.lines} lines shown.
        {excerpt.truncated && ' The file holds more: this is its end (at most 256 KiB and 1000 lines).'}
      </p>
      <pre tabIndex={0} aria-label="Log lines" data-log-lines>
        {lines.map((line) => `${String(line.no).padStart(width)}  ${line.text}`).join('\n')}
      </pre>
      <button
        type="button"
        class="quiet"
        onClick={() => saveFile(`${excerpt.stream}-${excerpt.file}`, excerpt.text, 'text/plain')}
      >
        Download excerpt
      </button>
    </>
  );
}
