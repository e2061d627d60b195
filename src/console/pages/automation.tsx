import { useEffect, useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { ConfirmDelete } from '../components/confirm-delete';
import { Choices, Form, Select, Submit } from '../components/form';
import { ActionNote, ErrorNote } from '../components/notes';
import { OnceSecret } from '../components/once-secret';
import { Facts, Section, Show } from '../components/section';
import { ItemsTable, Table } from '../components/table';
import { fieldText } from '../field-text';
import { base64ToBytes, bytesToBase64, saveFile } from '../files';
import { flowBody, flowFields } from '../flow-form';
import { bytes, time, yesNo } from '../format';
import { useMay } from '../may';
import { useAction } from '../use-action';
import { useLoad, type Loaded } from '../use-load';
import { FlowRuns } from './flow-runs';
import { Globals } from './globals';

type FlowList = Answer<'GET', '/api/v1/automation/flows'>;

export function AutomationPage({ api }: { api: Api }) {
  const flows = useLoad(() => api.call('GET', '/api/v1/automation/flows'), 'flows');
  return (
    <>
      <Globals api={api} />
      <Flows api={api} flows={flows} />
      <FlowRuns api={api} flows={flows.data?.items ?? []} />
      <Shares api={api} flows={flows.data?.items ?? []} onImported={flows.reload} />
      <Files api={api} />
      <Synchronizer api={api} />
    </>
  );
}

type Flow = Answer<'GET', '/api/v1/automation/flows/:id'>;

function Flows({ api, flows }: { api: Api; flows: Loaded<FlowList> }) {
  const remove = useAction();
  const create = useAction();
  const edit = useAction();
  const [editing, setEditing] = useState<Flow | null>(null);
  const [saved, setSaved] = useState('');
  const may = useMay();
  const mayEdit = may('PATCH', '/api/v1/automation/flows/:id');
  const mayDelete = may('DELETE', '/api/v1/automation/flows/:id');
  const open = (id: string) =>
    void edit.run(async () => {
      setSaved('');
      setEditing(await api.call('GET', '/api/v1/automation/flows/:id', { params: { id } }));
    });
  return (
    <Section title="Flows">
      <ErrorNote error={remove.error} />
      <ItemsTable
        loaded={flows}
        label="flows"
        columns={['Name', 'Group', 'Template', 'Steps', 'Values', 'Updated']}
        rowKey={(f) => f.id}
        cells={(f) => [f.name, f.group ?? '', yesNo(f.is_template), f.step_count, f.value_count, time(f.updated_at)]}
        actions={
          mayEdit || mayDelete
            ? (f) => (
                <div class="actions">
                  {mayEdit && (
                    <button type="button" class="quiet" onClick={() => open(f.id)}>
                      Edit flow {f.name}
                    </button>
                  )}
                  {mayDelete && (
                    <ConfirmDelete
                      remove={() => api.call('DELETE', '/api/v1/automation/flows/:id', { params: { id: f.id } })}
                      onDeleted={() => {
                        if (editing?.id === f.id) setEditing(null);
                        flows.reload();
                      }}
                      label={`Delete flow ${f.name}`}
                      confirm={`Delete flow ${f.name} now`}
                      action={remove}
                    />
                  )}
                </div>
              )
            : undefined
        }
        empty="No flow yet."
      />
      {editing && (
        <>
          <h3>Edit flow {editing.name}</h3>
          <Form
            // A flow read again (another one, or this one saved) starts the form over from its fields.
            key={`${editing.id}@${editing.updated_at}`}
            label={`Edit flow ${editing.name}`}
            onSubmit={(fields) =>
              void edit.run(async () => {
                const changed = await api.call('PATCH', '/api/v1/automation/flows/:id', {
                  params: { id: editing.id },
                  body: flowBody(fields),
                });
                setEditing(changed);
                setSaved(`Saved flow ${changed.name}.`);
                flows.reload();
              })
            }
          >
            <FlowFields id="flow-edit" flow={editing} />
            <Submit label="Save flow" busy={edit.busy}>
              <button type="button" class="quiet" onClick={() => setEditing(null)}>
                Close
              </button>
            </Submit>
          </Form>
        </>
      )}
      <ActionNote action={edit} busy="Working on the flow" />
      <p role="status">{saved}</p>
      {may('POST', '/api/v1/automation/flows') && (
        <>
          <h3>New flow</h3>
          <Form
            label="New flow"
            onSubmit={(fields, form) =>
              void create.run(async () => {
                await api.call('POST', '/api/v1/automation/flows', { body: flowBody(fields) });
                form.reset();
                flows.reload();
              })
            }
          >
            <FlowFields id="flow" />
            <Submit label="Create flow" busy={create.busy} />
          </Form>
          <ActionNote action={create} busy="Creating the flow" />
        </>
      )}
    </Section>
  );
}

/**
 * The fields of a flow, empty for a new one or filled from `flow` for an edit; `id` keeps the two
 * forms' element ids apart. A protected value shows only its name: a name alone keeps the secret.
 */
function FlowFields({ id, flow }: { id: string; flow?: Flow }) {
  const initial = flow ? flowFields(flow) : undefined;
  return (
    <>
      <label for={`${id}-name`}>Flow name</label>
      <input id={`${id}-name`} name="name" required maxLength={120} defaultValue={initial?.name} />
      <label for={`${id}-group`}>Flow group</label>
      <input id={`${id}-group`} name="group" maxLength={120} defaultValue={initial?.group} />
      <label for={`${id}-description`}>Description</label>
      <input id={`${id}-description`} name="description" maxLength={4000} defaultValue={initial?.description} />
      <label>
        <input type="checkbox" name="is_template" defaultChecked={initial?.is_template} /> Template
      </label>
      <label for={`${id}-steps`}>Steps (a JSON array)</label>
      <textarea id={`${id}-steps`} name="steps" defaultValue={initial?.steps ?? '[]'} spellcheck={false} />
      <label for={`${id}-values`}>Values (name=value, one a line)</label>
      <textarea id={`${id}-values`} name="values" defaultValue={initial?.values} spellcheck={false} />
      <label for={`${id}-protected`}>
        Protected values (name=value, one a line; never shown again
        {flow ? '; a name alone keeps the value stored' : ''})
      </label>
      <textarea
        id={`${id}-protected`}
        name="protected_values"
        defaultValue={initial?.protected_values}
        spellcheck={false}
      />
    </>
  );
}

function Shares({ api, flows, onImported }: { api: Api; flows: FlowList['items']; onImported: () => void }) {
  const shares = useLoad(() => api.call('GET', '/api/v1/automation/shares'), 'shares');
  const action = useAction();
  const [created, setCreated] = useState<Answer<'POST', '/api/v1/automation/shares'> | null>(null);
  const [preview, setPreview] = useState<Answer<'POST', '/api/v1/automation/shares/redeem'> | null>(null);
  const [imported, setImported] = useState('');
  const may = useMay();

  const create = (form: FormData) =>
    void action.run(async () => {
      const body = {
        ids: form.getAll('ids').map(String),
        name: fieldText(form, 'name'),
        expires_in_minutes: Number(form.get('expires')),
        max_uses: Number(form.get('uses')),
        include_secrets: form.get('secrets') === 'on',
      };
      setCreated(await api.call('POST', '/api/v1/automation/shares', { body }));
      shares.reload();
    });

  const redeem = (form: FormData) => {
    const code = fieldText(form, 'code');
    void action.run(async () => {
      setImported('');
      setPreview(await api.call('POST', '/api/v1/automation/shares/redeem', { body: { code } }));
      shares.reload();
    });
  };

  return (
    <Section title="Shares">
      <ItemsTable
        loaded={shares}
        label="shares"
        columns={['Name', 'Uses', 'Expires', 'Size']}
        rowKey={(s) => s.id}
        cells={(s) => [
          s.name,
          <>
            {s.uses} of {s.max_uses}
          </>,
          time(s.expires_at),
          bytes(s.size),
        ]}
        actions={
          may('DELETE', '/api/v1/automation/shares/:id')
            ? (s) => (
                <ConfirmDelete
                  remove={() => api.call('DELETE', '/api/v1/automation/shares/:id', { params: { id: s.id } })}
                  onDeleted={shares.reload}
                  label={`Revoke share ${s.name}`}
                  confirm={`Revoke share ${s.name} now`}
                  action={action}
                />
              )
            : undefined
        }
        empty="No share."
      />
      {may('POST', '/api/v1/automation/shares') && <h3>Share flows</h3>}
      {!may('POST', '/api/v1/automation/shares') ? null : flows.length === 0 ? (
        <p class="muted">A share holds flows; there is none to share.</p>
      ) : (
        <Form onSubmit={create} label="Share flows">
          <Choices legend="Flows to share" name="ids" choices={flows.map((f) => [f.id, f.name] as const)} />
          <label for="share-name">Share name</label>
          <input id="share-name" name="name" required maxLength={120} />
          <label for="share-expires">Expires in minutes</label>
          <input id="share-expires" name="expires" type="number" min={1} max={43_200} defaultValue="60" required />
          <label for="share-uses">Uses allowed</label>
          <input id="share-uses" name="uses" type="number" min={1} max={1000} defaultValue="1" required />
          <label>
            <input type="checkbox" name="secrets" /> Include protected values
          </label>
          <Submit label="Create share" busy={action.busy} />
        </Form>
      )}
      {created && <OnceSecret label={`Share code of “${created.name}”`} value={created.code} />}
      {may('POST', '/api/v1/automation/shares/redeem') && (
        <>
          <h3>Redeem a share code</h3>
          <Form onSubmit={redeem} label="Redeem a share code">
            <label for="share-code">Share code</label>
            <textarea id="share-code" name="code" required minLength={8} maxLength={2010} />
            <Submit label="Preview" busy={action.busy} />
          </Form>
        </>
      )}
      <ActionNote action={action} busy="Working on shares" />
      {preview && (
        <div role="region" aria-label="Share preview">
          <p>
            The code holds {preview.items.length} flow{preview.items.length === 1 ? '' : 's'}, created{' '}
            {time(preview.created_at)}; the import ticket expires {time(preview.expires_at)}.
          </p>
          <Table
            columns={['Name', 'Group', 'Template', 'Steps', 'Missing values', 'Protected values']}
            rows={preview.items}
            rowKey={(item) => item.id}
            cells={(item) => [
              item.name,
              item.group ?? '',
              yesNo(item.is_template),
              item.steps,
              item.missing_values,
              item.protected_values,
            ]}
          />
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                const result = await api.call('POST', '/api/v1/automation/shares/import', {
                  body: { ticket: preview.ticket, ids: preview.items.map((item) => item.id) },
                });
                setImported(`Imported ${result.items.map((item) => item.name).join(', ')}.`);
                setPreview(null);
                onImported();
              })
            }
          >
            Import all as new flows
          </button>
        </div>
      )}
      <p role="status">{imported}</p>
    </Section>
  );
}

function Files({ api }: { api: Api }) {
  const files = useLoad(() => api.call('GET', '/api/v1/automation/files'), 'files');
  const action = useAction();
  const [done, setDone] = useState('');
  const may = useMay();

  const upload = (fields: FormData, form: HTMLFormElement) => {
    const file = fields.get('file');
    if (!(file instanceof File)) return;
    void action.run(async () => {
      setDone('');
      const base64 = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
      await api.call('POST', '/api/v1/automation/files', { body: { name: file.name, base64 } });
      setDone(`Uploaded ${file.name}.`);
      form.reset();
      files.reload();
    });
  };

  return (
    <Section title="Files">
      <Show loaded={files} label="files">
        {(listing) => (
          <>
            <p class="muted">
              In <code>{listing.directory}</code>
            </p>
            {listing.items.length === 0 ? (
              <p>No file.</p>
            ) : (
              <ul class="files">
                {listing.items.map((f) => (
                  <li key={f.name}>
                    <code>{f.name}</code> <span class="muted">{bytes(f.size_bytes)}</span>{' '}
                    {may('GET', '/api/v1/automation/files/content') && (
                      <button
                        type="button"
                        class="quiet"
                        onClick={() =>
                          void action.run(async () => {
                            const content = await api.call('GET', '/api/v1/automation/files/content', {
                              query: { name: f.name },
                            });
                            saveFile(f.name, base64ToBytes(content.base64));
                          })
                        }
                      >
                        Download {f.name}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Show>
      {may('POST', '/api/v1/automation/files') && (
        <Form class="inline" onSubmit={upload} label="Upload a file">
          <label>
            File to upload
            <input type="file" name="file" required />
          </label>
          <button type="submit" disabled={action.busy}>
            Upload
          </button>
        </Form>
      )}
      <ActionNote action={action} busy="Transferring the file" />
      <p role="status">{done}</p>
    </Section>
  );
}

/** How often the synchronizer's counters are read again while it runs. */
const SYNC_REFRESH_MS = 3_000;

function Synchronizer({ api }: { api: Api }) {
  const may = useMay();
  const [running, setRunning] = useState(false);
  const status = useLoad(
    () => api.call('GET', '/api/v1/automation/synchronizer'),
    'sync',
    running ? SYNC_REFRESH_MS : undefined,
  );
  useEffect(() => setRunning(status.data?.running ?? false), [status.data?.running]);
  const profiles = useLoad(() => api.call('GET', '/api/v1/profiles', { query: { limit: 100 } }), 'sync-profiles');
  const names = new Map(profiles.data?.items.map((profile) => [profile.id, profile.name]));
  const named = (id: string | null) => (id === null ? 'none' : (names.get(id) ?? id));
  const action = useAction();
  const act = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      await work();
      await status.reload();
    });
  return (
    <Section title="Synchronizer">
      <Show loaded={status} label="the synchronizer">
        {(s) => (
          <>
            <Facts
              items={[
                ['Running', yesNo(s.running)],
                ['Mode', s.mode],
                ['Source', named(s.source_id)],
                ['Followers', s.follower_ids.length === 0 ? 'none' : s.follower_ids.map(named).join(', ')],
                ['Tabs', String(s.tabs.length)],
                ['Error', s.error ? `${s.error.code} (${named(s.error.profile_id)}): ${s.error.message}` : 'none'],
              ]}
            />
            {s.events.length > 0 && (
              <Table
                columns={['Follower', 'Alive', 'Captured', 'Replayed', 'Missed', 'Dropped', 'Last event']}
                rows={s.events}
                rowKey={(e) => e.profile_id}
                rowHeader
                cells={(e) => [
                  named(e.profile_id),
                  yesNo(e.alive),
                  e.captured,
                  e.replayed,
                  e.missed,
                  e.dropped,
                  time(e.last_event_at),
                ]}
                actions={
                  s.running && may('DELETE', '/api/v1/automation/synchronizer/followers/:id')
                    ? (e) => (
                        <button
                          type="button"
                          class="quiet"
                          disabled={action.busy}
                          onClick={() =>
                            act(() =>
                              api.call('DELETE', '/api/v1/automation/synchronizer/followers/:id', {
                                params: { id: e.profile_id },
                              }),
                            )
                          }
                        >
                          Remove {named(e.profile_id)}
                        </button>
                      )
                    : undefined
                }
              />
            )}
            {!may('POST', '/api/v1/automation/synchronizer/start') ? null : s.running ? (
              <Form
                label="Stop the synchronizer"
                onSubmit={(fields) =>
                  act(() =>
                    api.call('POST', '/api/v1/automation/synchronizer/stop', {
                      body: { stop_browsers: fields.get('stop_browsers') === 'on' },
                    }),
                  )
                }
              >
                <label>
                  <input type="checkbox" name="stop_browsers" /> Also stop the browsers
                </label>
                <Submit label="Stop the synchronizer" busy={action.busy} />
              </Form>
            ) : (
              <Form
                label="Start the synchronizer"
                onSubmit={(fields) =>
                  act(() =>
                    api.call('POST', '/api/v1/automation/synchronizer/start', {
                      body: {
                        source_id: fieldText(fields, 'source'),
                        follower_ids: fields.getAll('followers').map(String),
                        mode: fieldText(fields, 'mode') === 'coordinates' ? 'coordinates' : 'element',
                        options: {
                          delay_ms: {
                            min: Number(fieldText(fields, 'delay_min') || 0),
                            max: Number(fieldText(fields, 'delay_max') || 0),
                          },
                        },
                        headless: fields.get('headless') === 'on',
                      },
                    }),
                  )
                }
              >
                <Select
                  label="Source profile"
                  name="source"
                  options={(profiles.data?.items ?? []).map((p) => [p.id, p.name] as const)}
                />
                <Choices
                  legend="Followers"
                  name="followers"
                  choices={(profiles.data?.items ?? []).map((p) => [p.id, p.name] as const)}
                />
                <Select
                  label="Mode"
                  name="mode"
                  options={[
                    ['element', 'element (the matching element)'],
                    ['coordinates', 'coordinates (the same position)'],
                  ]}
                />
                <label for="sync-delay-min">Delay per event, from (ms)</label>
                <input id="sync-delay-min" name="delay_min" type="number" min={0} max={10_000} inputMode="numeric" />
                <label for="sync-delay-max">to (ms)</label>
                <input id="sync-delay-max" name="delay_max" type="number" min={0} max={10_000} inputMode="numeric" />
                <label>
                  <input type="checkbox" name="headless" /> Start the profiles that are not running without a window
                </label>
                <Submit label="Start the synchronizer" busy={action.busy} />
              </Form>
            )}
          </>
        )}
      </Show>
      <ActionNote action={action} busy="Working on the synchronizer" />
    </Section>
  );
}
