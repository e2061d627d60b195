import { useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { ConfirmDelete } from '../components/confirm-delete';
import { Form, Select, Submit } from '../components/form';
import { ActionNote } from '../components/notes';
import { Facts, Section, Show } from '../components/section';
import { Table } from '../components/table';
import { time, yesNo } from '../format';
import { profileBody } from '../profile-form';
import { PROFILE_SORT_LABELS, profileFilters, type ProfileFilters } from '../profile-query';
import { useMay } from '../may';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { Accounts } from './profile-accounts';
import { ProfileProxy } from './profile-proxy';
import { ProfileCookies } from './profile-cookies';
import { ProfileRun, RunStateBadge } from './profile-run';

const PAGE_SIZE = 25;

type Profile = Answer<'GET', '/api/v1/profiles/:id'>;

type Lease = Answer<'GET', '/api/v1/team/runs'>['items'][number];

/** Where a team profile runs, for whom and since when. */
const leaseLabel = (lease: Lease) => (
  <>
    {lease.machine_label}{' '}
    <span class="muted">
      ({lease.who}, since {time(lease.since)})
    </span>
  </>
);

export function ProfilesPage({ api }: { api: Api }) {
  const [filters, setFilters] = useState<ProfileFilters>({});
  // The cursors of the pages walked so far: the last one is the page shown (null: the first page).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const list = useLoad(
    () => api.call('GET', '/api/v1/profiles', { query: { ...filters, cursor, limit: PAGE_SIZE } }),
    `${JSON.stringify(filters)}\n${cursor}`,
  );
  // The live runs, for the Running column; a token without runtime:control gets no column (the open
  // profile's Browser part says which scope it lacks).
  const runs = useLoad(() => api.call('GET', '/api/v1/runs'), 'runs');
  const runOf = new Map(runs.data?.items.map((run) => [run.profile_id, run]));
  // Joined to a team: which machine runs each team profile (its lease, docs/teams.md#runs-across-machines).
  // The column is shown while any runs; a solo machine has no lease.
  const leases = useLoad(() => api.call('GET', '/api/v1/team/runs'), 'team runs');
  const leaseOf = new Map(leases.data?.items.map((lease) => [lease.profile_id, lease]));
  const anyLease = leaseOf.size > 0;
  const [openId, setOpenId] = useState<string | null>(null);
  const create = useAction();
  const may = useMay();

  const refresh = () => list.reload();

  return (
    <>
      <Section title="Profiles">
        <Form
          class="inline"
          role="search"
          onSubmit={(fields) => {
            // A cursor is bound to the filters and order it was made with: a new search starts at the first page.
            setFilters(profileFilters(fields));
            setCursors([null]);
          }}
        >
          <label>
            Search
            <input name="q" type="search" maxLength={200} />
          </label>
          <label>
            Group
            <input name="group" />
          </label>
          <label>
            Tag
            <input name="tag" />
          </label>
          <Select
            label="Pinned"
            name="pinned"
            blank="any"
            options={[
              ['yes', 'pinned'],
              ['no', 'not pinned'],
            ]}
          />
          <Select label="Sort by" name="sort" options={Object.entries(PROFILE_SORT_LABELS)} />
          <Select
            label="Order"
            name="order"
            options={[
              ['asc', 'ascending'],
              ['desc', 'descending'],
            ]}
          />
          <button type="submit">Search</button>
        </Form>
        <Show loaded={list} label="profiles">
          {(page) => (
            <>
              <p class="muted">
                {page.total} profile{page.total === 1 ? '' : 's'}
                {filters.q && <> matching “{filters.q}”</>}
                {(filters.group ?? filters.tag ?? filters.pinned) !== undefined && ' (filtered)'}; page {cursors.length}
                .
              </p>
              {page.items.length > 0 && (
                <Table
                  columns={[
                    'No',
                    'Name',
                    'Group',
                    'Tags',
                    'Pinned',
                    'Updated',
                    ...(runs.data ? ['Running'] : []),
                    ...(anyLease ? ['Runs on'] : []),
                  ]}
                  rows={page.items}
                  rowKey={(p) => p.id}
                  cells={(p) => [
                    p.no,
                    <button
                      type="button"
                      class="link"
                      aria-expanded={openId === p.id}
                      onClick={() => setOpenId(openId === p.id ? null : p.id)}
                    >
                      {p.name}
                    </button>,
                    p.group ?? '',
                    p.tags.join(', '),
                    yesNo(p.pinned),
                    time(p.updated_at),
                    // A live run's state (`running`, or `starting` and `stopping` on the way); `no` without one.
                    ...(runs.data ? [runOf.has(p.id) ? <RunStateBadge state={runOf.get(p.id)!.state} /> : 'no'] : []),
                    ...(anyLease ? [leaseOf.has(p.id) ? leaseLabel(leaseOf.get(p.id)!) : ''] : []),
                  ]}
                />
              )}
              <div class="actions">
                <button
                  type="button"
                  class="quiet"
                  disabled={cursors.length === 1}
                  onClick={() => setCursors(cursors.slice(0, -1))}
                >
                  Previous page
                </button>
                <button
                  type="button"
                  class="quiet"
                  disabled={page.next_cursor === null}
                  onClick={() => setCursors([...cursors, page.next_cursor])}
                >
                  Next page
                </button>
              </div>
            </>
          )}
        </Show>
      </Section>
      {openId && (
        <ProfileDetail
          key={openId}
          api={api}
          id={openId}
          onChanged={refresh}
          onDeleted={() => (setOpenId(null), refresh())}
          onRunChanged={runs.reload}
        />
      )}
      {may('POST', '/api/v1/profiles') && (
        <Section title="New profile">
          <ProfileForm
            submitLabel="Create profile"
            busy={create.busy}
            onSubmit={(body, form) =>
              create.run(async () => {
                const created = await api.call('POST', '/api/v1/profiles', { body });
                form.reset();
                refresh();
                setOpenId(created.id);
              })
            }
          />
          <ActionNote action={create} busy="Creating the profile" />
        </Section>
      )}
    </>
  );
}

function ProfileForm({
  profile,
  submitLabel,
  busy,
  onSubmit,
}: {
  profile?: Profile;
  submitLabel: string;
  busy: boolean;
  onSubmit: (body: ReturnType<typeof profileBody>, form: HTMLFormElement) => void;
}) {
  const id = profile ? `edit-${profile.id}` : 'new';
  return (
    <Form label={submitLabel} onSubmit={(fields, form) => onSubmit(profileBody(fields), form)}>
      <label for={`${id}-name`}>Name</label>
      <input id={`${id}-name`} name="name" required maxLength={120} defaultValue={profile?.name} />
      <label for={`${id}-group`}>Group</label>
      <input id={`${id}-group`} name="group" maxLength={120} defaultValue={profile?.group ?? ''} />
      <label for={`${id}-tags`}>Tags (comma-separated)</label>
      <input id={`${id}-tags`} name="tags" defaultValue={profile?.tags.join(', ')} />
      <label for={`${id}-notes`}>Notes</label>
      <textarea id={`${id}-notes`} name="notes" maxLength={10_000} defaultValue={profile?.notes ?? ''} />
      <label>
        <input type="checkbox" name="pinned" defaultChecked={profile?.pinned} /> Pinned
      </label>
      <BrowserFields id={id} browser={profile?.browser} />
      <Submit label={submitLabel} busy={busy} />
    </Form>
  );
}

/** The browser settings a profile keeps (docs/runs.md#browser-settings); an empty field is the browser's own. */
function BrowserFields({ id, browser }: { id: string; browser: Profile['browser'] | undefined }) {
  return (
    <fieldset>
      <legend>Browser</legend>
      <label>
        <input type="checkbox" name="headless" defaultChecked={browser?.headless} /> Start headless (no window)
      </label>
      <label for={`${id}-window-width`}>Window width</label>
      <input
        id={`${id}-window-width`}
        name="window_width"
        type="number"
        min={100}
        max={10_000}
        defaultValue={browser?.window?.width}
      />
      <label for={`${id}-window-height`}>Window height</label>
      <input
        id={`${id}-window-height`}
        name="window_height"
        type="number"
        min={100}
        max={10_000}
        defaultValue={browser?.window?.height}
      />
      <label for={`${id}-start-urls`}>Start pages (one URL a line)</label>
      <textarea id={`${id}-start-urls`} name="start_urls" defaultValue={browser?.start_urls.join('\n')} />
      <label for={`${id}-user-agent`}>User agent</label>
      <input id={`${id}-user-agent`} name="user_agent" maxLength={1024} defaultValue={browser?.user_agent ?? ''} />
      <label for={`${id}-languages`}>Languages (comma-separated, such as en-US, de)</label>
      <input id={`${id}-languages`} name="languages" defaultValue={browser?.languages?.join(', ') ?? ''} />
      <label for={`${id}-timezone`}>Time zone (such as Europe/Berlin)</label>
      <input id={`${id}-timezone`} name="timezone" maxLength={64} defaultValue={browser?.timezone ?? ''} />
      <label for={`${id}-args`}>Extra switches (one a line, such as --disable-gpu)</label>
      <textarea id={`${id}-args`} name="args" defaultValue={browser?.args.join('\n')} />
    </fieldset>
  );
}

function ProfileDetail({
  api,
  id,
  onChanged,
  onDeleted,
  onRunChanged,
}: {
  api: Api;
  id: string;
  onChanged: () => void;
  onDeleted: () => void;
  onRunChanged: () => void;
}) {
  const profile = useLoad(() => api.call('GET', '/api/v1/profiles/:id', { params: { id } }), id);
  const action = useAction();
  const may = useMay();
  return (
    <Section title={profile.data ? `Profile ${profile.data.name}` : 'Profile'}>
      <Show loaded={profile} label="the profile">
        {(p) => (
          <>
            {may('PATCH', '/api/v1/profiles/:id') ? (
              <ProfileForm
                key={p.updated_at}
                profile={p}
                submitLabel="Save profile"
                busy={action.busy}
                onSubmit={(body) =>
                  action.run(async () => {
                    await api.call('PATCH', '/api/v1/profiles/:id', { params: { id }, body });
                    profile.reload();
                    onChanged();
                  })
                }
              />
            ) : (
              <Facts
                items={[
                  ['Name', p.name],
                  ['Group', p.group ?? 'none'],
                  ['Tags', p.tags.join(', ') || 'none'],
                  ['Pinned', yesNo(p.pinned)],
                  ['Notes', p.notes ?? 'none'],
                ]}
              />
            )}
            {may('DELETE', '/api/v1/profiles/:id') && (
              <div class="actions">
                <ConfirmDelete
                  remove={() => api.call('DELETE', '/api/v1/profiles/:id', { params: { id } })}
                  onDeleted={onDeleted}
                  label={`Delete profile ${p.name}`}
                  confirm={`Delete ${p.name} and its accounts`}
                  action={action}
                />
              </div>
            )}
            <ActionNote action={action} busy="Saving the profile" />
            <ProfileRun api={api} id={id} headless={p.browser.headless} onRunChanged={onRunChanged} />
            <ProfileCookies api={api} id={id} />
            {may('PATCH', '/api/v1/profiles/:id') && (
              <ProfileProxy key={p.updated_at} api={api} profile={p} onSaved={profile.reload} />
            )}
            <Accounts api={api} profileId={id} />
          </>
        )}
      </Show>
    </Section>
  );
}
