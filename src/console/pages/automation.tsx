import { useState } from 'preact/hooks';
import { segment, type Api } from '../api';
import type { AutomationFileListing, FlowSummary, Items, ShareRedeemPreview, Share, ShareWithCode } from '../api-types';
import { Busy, ConfirmButton, ErrorNote, Facts, OnceSecret, Section, Show } from '../components';
import { base64ToBytes, bytesToBase64, saveFile } from '../files';
import { bytes, time } from '../format';
import { useAction } from '../use-action';
import { useLoad, type Loaded } from '../use-load';
import { Globals } from './globals';

export function AutomationPage({ api }: { api: Api }) {
  const flows = useLoad(() => api.get<Items<FlowSummary>>('/api/v1/automation/flows'), 'flows');
  return (
    <>
      <Globals api={api} />
      <Flows api={api} flows={flows} />
      <Shares api={api} flows={flows.data?.items ?? []} onImported={flows.reload} />
      <Files api={api} />
      <Synchronizer api={api} />
    </>
  );
}

function Flows({ api, flows }: { api: Api; flows: Loaded<Items<FlowSummary>> }) {
  const remove = useAction();
  return (
    <Section title="Flows">
      <ErrorNote error={remove.error} />
      <Show loaded={flows} label="flows">
        {({ items }) =>
          items.length === 0 ? (
            <p>No flow yet.</p>
          ) : (
            <div class="table-wrap" tabIndex={0} role="group" aria-label="Table (scrolls sideways)">
              <table>
                <thead>
                  <tr>
                    {['Name', 'Group', 'Template', 'Steps', 'Values', 'Updated'].map((h) => (
                      <th key={h} scope="col">
                        {h}
                      </th>
                    ))}
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((f) => (
                    <tr key={f.id}>
                      <td>{f.name}</td>
                      <td>{f.group ?? ''}</td>
                      <td>{f.is_template ? 'yes' : 'no'}</td>
                      <td>{f.step_count}</td>
                      <td>{f.value_count}</td>
                      <td>{time(f.updated_at)}</td>
                      <td>
                        <ConfirmButton
                          label={`Delete flow ${f.name}`}
                          confirm={`Delete flow ${f.name} now`}
                          onConfirm={() =>
                            void remove.run(async () => {
                              await api.call('DELETE', `/api/v1/automation/flows/${segment(f.id)}`);
                              flows.reload();
                            })
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
    </Section>
  );
}

function Shares({ api, flows, onImported }: { api: Api; flows: FlowSummary[]; onImported: () => void }) {
  const shares = useLoad(() => api.get<Items<Share>>('/api/v1/automation/shares'), 'shares');
  const action = useAction();
  const [created, setCreated] = useState<ShareWithCode | null>(null);
  const [preview, setPreview] = useState<ShareRedeemPreview | null>(null);
  const [imported, setImported] = useState('');

  const create = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    void action.run(async () => {
      const body = {
        ids: form.getAll('ids').map(String),
        name: String(form.get('name') ?? '').trim(),
        expires_in_minutes: Number(form.get('expires')),
        max_uses: Number(form.get('uses')),
        include_secrets: form.get('secrets') === 'on',
      };
      setCreated(await api.call<ShareWithCode>('POST', '/api/v1/automation/shares', { body }));
      shares.reload();
    });
  };

  const redeem = (event: Event) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').trim();
    void action.run(async () => {
      setImported('');
      setPreview(await api.call<ShareRedeemPreview>('POST', '/api/v1/automation/shares/redeem', { body: { code } }));
      shares.reload();
    });
  };

  return (
    <Section title="Shares">
      <Show loaded={shares} label="shares">
        {({ items }) =>
          items.length === 0 ? (
            <p>No share.</p>
          ) : (
            <div class="table-wrap" tabIndex={0} role="group" aria-label="Table (scrolls sideways)">
              <table>
                <thead>
                  <tr>
                    {['Name', 'Uses', 'Expires', 'Size'].map((h) => (
                      <th key={h} scope="col">
                        {h}
                      </th>
                    ))}
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((s) => (
                    <tr key={s.id}>
                      <td>{s.name}</td>
                      <td>
                        {s.uses} of {s.max_uses}
                      </td>
                      <td>{time(s.expires_at)}</td>
                      <td>{bytes(s.size)}</td>
                      <td>
                        <ConfirmButton
                          label={`Revoke share ${s.name}`}
                          confirm={`Revoke share ${s.name} now`}
                          onConfirm={() =>
                            void action.run(async () => {
                              await api.call('DELETE', `/api/v1/automation/shares/${segment(s.id)}`);
                              shares.reload();
                            })
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
      <h3>Share flows</h3>
      {flows.length === 0 ? (
        <p class="muted">A share holds flows; there is none to share.</p>
      ) : (
        <form onSubmit={create} aria-label="Share flows">
          <fieldset>
            <legend>Flows to share</legend>
            <div class="choices">
              {flows.map((f) => (
                <label key={f.id}>
                  <input type="checkbox" name="ids" value={f.id} /> {f.name}
                </label>
              ))}
            </div>
          </fieldset>
          <label for="share-name">Share name</label>
          <input id="share-name" name="name" required maxLength={120} />
          <label for="share-expires">Expires in minutes</label>
          <input id="share-expires" name="expires" type="number" min={1} max={43_200} defaultValue="60" required />
          <label for="share-uses">Uses allowed</label>
          <input id="share-uses" name="uses" type="number" min={1} max={1000} defaultValue="1" required />
          <label>
            <input type="checkbox" name="secrets" /> Include protected values
          </label>
          <div class="actions">
            <button type="submit" disabled={action.busy}>
              Create share
            </button>
          </div>
        </form>
      )}
      {created && <OnceSecret label={`Share code of “${created.name}”`} value={created.code} />}
      <h3>Redeem a share code</h3>
      <form onSubmit={redeem} aria-label="Redeem a share code">
        <label for="share-code">Share code</label>
        <textarea id="share-code" name="code" required minLength={8} maxLength={2010} />
        <div class="actions">
          <button type="submit" disabled={action.busy}>
            Preview
          </button>
        </div>
      </form>
      {action.busy && <Busy label="Working on shares" />}
      <ErrorNote error={action.error} />
      {preview && (
        <div role="region" aria-label="Share preview">
          <p>
            The code holds {preview.items.length} flow{preview.items.length === 1 ? '' : 's'}, created {preview.created_at}; the import ticket expires {time(preview.expires_at)}.
          </p>
          <div class="table-wrap" tabIndex={0} role="group" aria-label="Table (scrolls sideways)">
            <table>
              <thead>
                <tr>
                  {['Name', 'Group', 'Template', 'Steps', 'Missing values', 'Protected values'].map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.items.map((item) => (
                  <tr key={item.id}>
                    <td>{item.name}</td>
                    <td>{item.group ?? ''}</td>
                    <td>{item.is_template ? 'yes' : 'no'}</td>
                    <td>{item.steps}</td>
                    <td>{item.missing_values}</td>
                    <td>{item.protected_values}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                const result = await api.call<Items<{ id: string; name: string }>>('POST', '/api/v1/automation/shares/import', {
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
  const files = useLoad(() => api.get<AutomationFileListing>('/api/v1/automation/files'), 'files');
  const action = useAction();
  const [done, setDone] = useState('');

  const upload = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const file = new FormData(form).get('file');
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
                    <button
                      type="button"
                      class="quiet"
                      onClick={() =>
                        void action.run(async () => {
                          const content = await api.get<{ base64: string }>('/api/v1/automation/files/content', { name: f.name });
                          saveFile(f.name, base64ToBytes(content.base64));
                        })
                      }
                    >
                      Download {f.name}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Show>
      <form class="inline" onSubmit={upload} aria-label="Upload a file">
        <label>
          File to upload
          <input type="file" name="file" required />
        </label>
        <button type="submit" disabled={action.busy}>
          Upload
        </button>
      </form>
      {action.busy && <Busy label="Transferring the file" />}
      <ErrorNote error={action.error} />
      <p role="status">{done}</p>
    </Section>
  );
}

function Synchronizer({ api }: { api: Api }) {
  const status = useLoad(() => api.get<{ running: boolean; source_id: string | null; follower_ids: string[]; mode: string }>('/api/v1/automation/synchronizer'), 'sync');
  return (
    <Section title="Synchronizer">
      <Show loaded={status} label="the synchronizer">
        {(s) => (
          <Facts
            items={[
              ['Running', s.running ? 'yes' : 'no'],
              ['Mode', s.mode],
              ['Source', s.source_id ?? 'none'],
              ['Followers', s.follower_ids.length === 0 ? 'none' : s.follower_ids.join(', ')],
            ]}
          />
        )}
      </Show>
    </Section>
  );
}
