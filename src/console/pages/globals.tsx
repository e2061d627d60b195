import { useState } from 'preact/hooks';
import { ApiFailure, type Answer, type Api } from '../api';
import { ConfirmDelete } from '../components/confirm-delete';
import { Form, Submit } from '../components/form';
import { ActionNote } from '../components/notes';
import { Section } from '../components/section';
import { ItemsTable } from '../components/table';
import { fieldText } from '../field-text';
import { bytes, time } from '../format';
import { useAction } from '../use-action';
import { useMay } from '../may';
import { useLoad } from '../use-load';

interface Editing {
  name: string;
  /** The revision this draft was read at: the `expected_revision` of its save. */
  revision: number;
  draft: string;
}

/**
 * Globals, edited with `expected_revision`: a save that finds a newer revision shows that newer value
 * and lets the person keep theirs (saved over the newer revision) or take the newer one.
 */
export function Globals({ api }: { api: Api }) {
  const list = useLoad(() => api.call('GET', '/api/v1/automation/globals'), 'globals');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [newer, setNewer] = useState<Answer<'GET', '/api/v1/automation/globals/:name'> | null>(null);
  const [saved, setSaved] = useState('');
  const action = useAction();
  const may = useMay();
  const read = (name: string) => api.call('GET', '/api/v1/automation/globals/:name', { params: { name } });

  const open = (name: string) =>
    action.run(async () => {
      const current = await read(name);
      setEditing({ name, revision: current.revision, draft: current.value });
      setNewer(null);
      setSaved('');
    });

  const save = (at: number) =>
    action.run(async () => {
      if (!editing) return;
      setSaved('');
      try {
        const written = await api.call('PUT', '/api/v1/automation/globals/:name', {
          params: { name: editing.name },
          body: { value: editing.draft, expected_revision: at },
        });
        setEditing({ ...editing, revision: written.revision });
        setNewer(null);
        setSaved(`Saved ${editing.name} at revision ${written.revision}.`);
        list.reload();
      } catch (failure) {
        if (!(failure instanceof ApiFailure && failure.code === 'state.revision_conflict')) throw failure;
        setNewer(await read(editing.name));
      }
    });

  return (
    <Section title="Globals">
      <ItemsTable
        loaded={list}
        label="globals"
        columns={['Name', 'Revision', 'Size', 'Updated']}
        rowKey={(g) => g.name}
        cells={(g) => [<code>{g.name}</code>, g.revision, bytes(g.bytes), time(g.updated_at)]}
        actions={(g) => (
          <div class="actions">
            {may('PUT', '/api/v1/automation/globals/:name') && (
              <button type="button" class="quiet" onClick={() => open(g.name)}>
                Edit {g.name}
              </button>
            )}
            {may('DELETE', '/api/v1/automation/globals/:name') && (
              <ConfirmDelete
                remove={() =>
                  api.call('DELETE', '/api/v1/automation/globals/:name', {
                    params: { name: g.name },
                    query: { expected_revision: g.revision },
                  })
                }
                onDeleted={() => {
                  if (editing?.name === g.name) setEditing(null);
                  list.reload();
                }}
                label={`Delete ${g.name}`}
                confirm={`Delete ${g.name} at revision ${g.revision}`}
                action={action}
              />
            )}
          </div>
        )}
        empty="No global yet."
      />
      {may('PUT', '/api/v1/automation/globals/:name') && (
        <Form
          class="inline"
          onSubmit={(fields) => {
            setEditing({ name: fieldText(fields, 'name'), revision: 0, draft: '' });
            setNewer(null);
            setSaved('');
          }}
        >
          <label>
            New global name
            <input
              name="name"
              required
              pattern="[A-Za-z_][A-Za-z0-9_]{0,63}"
              title="A letter or _, then letters, digits or _ (64 at most)"
            />
          </label>
          <button type="submit" class="quiet">
            New global
          </button>
        </Form>
      )}
      <ActionNote action={action} busy="Working on the global" />
      {editing && (
        <Form label={`Editing ${editing.name}`} onSubmit={() => void save(editing.revision)}>
          <label for="global-value">
            Value of <code>{editing.name}</code>{' '}
            {editing.revision === 0 ? '(new)' : `(read at revision ${editing.revision})`}
          </label>
          <textarea
            id="global-value"
            value={editing.draft}
            onInput={(event) => setEditing({ ...editing, draft: (event.currentTarget as HTMLTextAreaElement).value })}
          />
          <Submit label="Save" busy={action.busy}>
            <button type="button" class="quiet" onClick={() => setEditing(null)}>
              Close
            </button>
          </Submit>
        </Form>
      )}
      {editing && newer && (
        <div class="note error" role="alert" aria-label="Revision conflict">
          <p>
            Someone saved <code>{editing.name}</code> meanwhile: it is now at revision <strong>{newer.revision}</strong>
            , with this value:
          </p>
          <pre>{newer.value}</pre>
          <div class="actions">
            <button type="button" onClick={() => void save(newer.revision)}>
              Save mine over revision {newer.revision}
            </button>
            <button
              type="button"
              class="quiet"
              onClick={() => {
                setEditing({ ...editing, revision: newer.revision, draft: newer.value });
                setNewer(null);
              }}
            >
              Take the newer value
            </button>
          </div>
        </div>
      )}
      <p role="status">{saved}</p>
    </Section>
  );
}
