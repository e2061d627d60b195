import { useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { ConfirmDelete } from '../components/confirm-delete';
import { Form, Submit } from '../components/form';
import { ActionNote, ErrorNote } from '../components/notes';
import { Section, Show } from '../components/section';
import { Table } from '../components/table';
import { fieldText } from '../field-text';
import { time, yesNo } from '../format';
import { accountBody, profileBody } from '../profile-form';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { ProfileCookies } from './profile-cookies';
import { ProfileRun, RunStateBadge } from './profile-run';

const PAGE_SIZE = 25;

type Profile = Answer<'GET', '/api/v1/profiles/:id'>;
type PlatformAccount = Answer<'GET', '/api/v1/profiles/:id/accounts'>['items'][number];

export function ProfilesPage({ api }: { api: Api }) {
  const [q, setQ] = useState('');
  // The cursors of the pages walked so far: the last one is the page shown (null: the first page).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const list = useLoad(
    () => api.call('GET', '/api/v1/profiles', { query: { q, cursor, limit: PAGE_SIZE } }),
    `${q}\n${cursor}`,
  );
  // The live runs, for the Running column; a token without runtime:control gets no column (the open
  // profile's Browser part says which scope it lacks).
  const runs = useLoad(() => api.call('GET', '/api/v1/runs'), 'runs');
  const runOf = new Map(runs.data?.items.map((run) => [run.profile_id, run]));
  const [openId, setOpenId] = useState<string | null>(null);
  const create = useAction();

  const refresh = () => list.reload();

  return (
    <>
      <Section title="Profiles">
        <Form
          class="inline"
          role="search"
          onSubmit={(fields) => {
            setQ(fieldText(fields, 'q'));
            setCursors([null]);
          }}
        >
          <label>
            Search
            <input name="q" type="search" maxLength={200} />
          </label>
          <button type="submit">Search</button>
        </Form>
        <Show loaded={list} label="profiles">
          {(page) => (
            <>
              <p class="muted">
                {page.total} profile{page.total === 1 ? '' : 's'}
                {q && <> matching “{q}”</>}; page {cursors.length}.
              </p>
              {page.items.length > 0 && (
                <Table
                  columns={['No', 'Name', 'Group', 'Tags', 'Pinned', 'Updated', ...(runs.data ? ['Running'] : [])]}
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
  return (
    <Section title={profile.data ? `Profile ${profile.data.name}` : 'Profile'}>
      <Show loaded={profile} label="the profile">
        {(p) => (
          <>
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
            <div class="actions">
              <ConfirmDelete
                remove={() => api.call('DELETE', '/api/v1/profiles/:id', { params: { id } })}
                onDeleted={onDeleted}
                label={`Delete profile ${p.name}`}
                confirm={`Delete ${p.name} and its accounts`}
                action={action}
              />
            </div>
            <ActionNote action={action} busy="Saving the profile" />
            <ProfileRun api={api} id={id} headless={p.browser.headless} onRunChanged={onRunChanged} />
            <ProfileCookies api={api} id={id} />
            <Accounts api={api} profileId={id} />
          </>
        )}
      </Show>
    </Section>
  );
}

function Accounts({ api, profileId }: { api: Api; profileId: string }) {
  const accounts = useLoad(
    () => api.call('GET', '/api/v1/profiles/:id/accounts', { params: { id: profileId } }),
    profileId,
  );
  const add = useAction();
  return (
    <>
      <h3>Platform accounts</h3>
      <Show loaded={accounts} label="platform accounts">
        {({ items }) =>
          items.length === 0 ? (
            <p>No platform account.</p>
          ) : (
            <ul class="accounts">
              {items.map((a) => (
                <Account
                  key={a.id}
                  api={api}
                  params={{ id: profileId, accountId: a.id }}
                  account={a}
                  onDeleted={accounts.reload}
                />
              ))}
            </ul>
          )
        }
      </Show>
      <Form
        label="Add a platform account"
        onSubmit={(fields, form) =>
          void add.run(async () => {
            await api.call('POST', '/api/v1/profiles/:id/accounts', {
              params: { id: profileId },
              body: accountBody(fields),
            });
            form.reset();
            accounts.reload();
          })
        }
      >
        <label for="account-url">Platform URL</label>
        <input id="account-url" name="platform_url" required maxLength={256} />
        <label for="account-user">Username</label>
        <input id="account-user" name="username" maxLength={256} autocomplete="off" />
        <label for="account-password">Password</label>
        <input id="account-password" name="password" type="password" maxLength={1024} autocomplete="new-password" />
        <label for="account-totp">2FA (TOTP) secret</label>
        <input id="account-totp" name="totp_secret" type="password" maxLength={1024} autocomplete="off" />
        <label for="account-notes">Account notes</label>
        <input id="account-notes" name="notes" maxLength={1024} />
        <Submit label="Add account" busy={add.busy} />
      </Form>
      <ActionNote action={add} busy="Adding the account" />
    </>
  );
}

/**
 * One account, its secrets masked. Revealing the password or a 2FA code is a button press of its own:
 * the API checks its scope and audits the read, as for any client.
 */
function Account({
  api,
  params,
  account,
  onDeleted,
}: {
  api: Api;
  /** The account's address: its profile's id and its own. */
  params: { id: string; accountId: string };
  account: PlatformAccount;
  onDeleted: () => void;
}) {
  const [password, setPassword] = useState<string | null>(null);
  const [totp, setTotp] = useState<Answer<'GET', '/api/v1/profiles/:id/accounts/:accountId/totp'> | null>(null);
  const action = useAction();
  const who = account.username ?? account.platform_url;
  return (
    <li>
      <p>
        <strong>{account.platform_url}</strong> {account.username && <>as {account.username}</>}
        {account.notes && <span class="muted"> — {account.notes}</span>}
      </p>
      <p>
        Password:{' '}
        {!account.password_set ? (
          'not set'
        ) : password === null ? (
          <>
            <span aria-label="masked">••••••••</span>{' '}
            <button
              type="button"
              class="quiet"
              onClick={() =>
                void action.run(async () =>
                  setPassword(
                    (await api.call('GET', '/api/v1/profiles/:id/accounts/:accountId/password', { params })).password,
                  ),
                )
              }
            >
              Reveal password of {who}
            </button>
          </>
        ) : (
          <>
            <span class="secret" data-password>
              {password}
            </span>{' '}
            <button type="button" class="quiet" onClick={() => setPassword(null)}>
              Hide password of {who}
            </button>
          </>
        )}
      </p>
      <p>
        2FA:{' '}
        {!account.totp_set ? (
          'not set'
        ) : (
          <>
            {totp && (
              <span class="secret" data-totp>
                {totp.code}
              </span>
            )}{' '}
            {totp && <span class="muted">valid {totp.remaining_s} s more</span>}{' '}
            <button
              type="button"
              class="quiet"
              onClick={() =>
                void action.run(async () =>
                  setTotp(await api.call('GET', '/api/v1/profiles/:id/accounts/:accountId/totp', { params })),
                )
              }
            >
              Show 2FA code of {who}
            </button>
          </>
        )}
      </p>
      <ConfirmDelete
        remove={() => api.call('DELETE', '/api/v1/profiles/:id/accounts/:accountId', { params })}
        onDeleted={onDeleted}
        label={`Delete account ${who}`}
        confirm={`Delete account ${who} now`}
        action={action}
      />
      <ErrorNote error={action.error} />
    </li>
  );
}
