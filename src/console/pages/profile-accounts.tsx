import { useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { ConfirmDelete } from '../components/confirm-delete';
import { Form, Submit } from '../components/form';
import { ActionNote, ErrorNote } from '../components/notes';
import { Show } from '../components/section';
import { useMay } from '../may';
import { accountBody } from '../profile-form';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

type PlatformAccount = Answer<'GET', '/api/v1/profiles/:id/accounts'>['items'][number];

/** A profile's platform accounts: listed with secrets masked, added, changed and removed as the token may. */
export function Accounts({ api, profileId }: { api: Api; profileId: string }) {
  const accounts = useLoad(
    () => api.call('GET', '/api/v1/profiles/:id/accounts', { params: { id: profileId } }),
    profileId,
  );
  const add = useAction();
  const may = useMay();
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
                  key={`${a.id}-${a.updated_at}`}
                  api={api}
                  params={{ id: profileId, accountId: a.id }}
                  account={a}
                  onChanged={accounts.reload}
                />
              ))}
            </ul>
          )
        }
      </Show>
      {may('POST', '/api/v1/profiles/:id/accounts') && (
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
          <AccountFields id="account" />
          <Submit label="Add account" busy={add.busy} />
        </Form>
      )}
      <ActionNote action={add} busy="Adding the account" />
    </>
  );
}

/**
 * An account form's fields, blank for a new account or holding an account's values to change: its
 * secrets are never shown, so they start blank (blank keeps them) with a box that removes one set.
 */
function AccountFields({ id, account }: { id: string; account?: PlatformAccount }) {
  const secret = (name: 'password' | 'totp_secret', label: string, set: boolean | undefined) => (
    <>
      <label for={`${id}-${name}`}>{account ? `New ${label} (blank: keep)` : label}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        type="password"
        maxLength={1024}
        autocomplete={name === 'password' ? 'new-password' : 'off'}
      />
      {set && (
        <label>
          <input type="checkbox" name={`remove_${name}`} /> Remove the {label}
        </label>
      )}
    </>
  );
  return (
    <>
      <label for={`${id}-url`}>Platform URL</label>
      <input id={`${id}-url`} name="platform_url" required maxLength={256} defaultValue={account?.platform_url} />
      <label for={`${id}-user`}>Username</label>
      <input
        id={`${id}-user`}
        name="username"
        maxLength={256}
        autocomplete="off"
        defaultValue={account?.username ?? ''}
      />
      {secret('password', 'password', account?.password_set)}
      {secret('totp_secret', '2FA (TOTP) secret', account?.totp_set)}
      <label for={`${id}-notes`}>Account notes</label>
      <input id={`${id}-notes`} name="notes" maxLength={1024} defaultValue={account?.notes ?? ''} />
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
  onChanged,
}: {
  api: Api;
  /** The account's address: its profile's id and its own. */
  params: { id: string; accountId: string };
  account: PlatformAccount;
  onChanged: () => void;
}) {
  const [password, setPassword] = useState<string | null>(null);
  const [totp, setTotp] = useState<Answer<'GET', '/api/v1/profiles/:id/accounts/:accountId/totp'> | null>(null);
  const [editing, setEditing] = useState(false);
  const action = useAction();
  const may = useMay();
  const who = account.username ?? account.platform_url;
  const revealPassword = may('GET', '/api/v1/profiles/:id/accounts/:accountId/password');
  const showTotp = may('GET', '/api/v1/profiles/:id/accounts/:accountId/totp');
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
            {revealPassword && (
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
            )}
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
            {showTotp ? (
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
            ) : (
              'set'
            )}
          </>
        )}
      </p>
      <div class="actions">
        {may('PATCH', '/api/v1/profiles/:id/accounts/:accountId') && (
          <button type="button" class="quiet" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            Edit account {who}
          </button>
        )}
        {may('DELETE', '/api/v1/profiles/:id/accounts/:accountId') && (
          <ConfirmDelete
            remove={() => api.call('DELETE', '/api/v1/profiles/:id/accounts/:accountId', { params })}
            onDeleted={onChanged}
            label={`Delete account ${who}`}
            confirm={`Delete account ${who} now`}
            action={action}
          />
        )}
      </div>
      {editing && (
        <Form
          label={`Change account ${who}`}
          onSubmit={(fields) =>
            void action.run(async () => {
              await api.call('PATCH', '/api/v1/profiles/:id/accounts/:accountId', {
                params,
                body: accountBody(fields),
              });
              onChanged();
            })
          }
        >
          <AccountFields id={`account-${account.id}`} account={account} />
          <Submit label="Save account" busy={action.busy}>
            <button type="button" class="quiet" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </Submit>
        </Form>
      )}
      <ErrorNote error={action.error} />
    </li>
  );
}
