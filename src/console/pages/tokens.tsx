import { useState } from 'preact/hooks';
import { SCOPES } from '../../shared/scopes';
import type { Api } from '../api';
import type { CreatedToken, Items, Token } from '../api-types';
import { Busy, ConfirmButton, ErrorNote, OnceSecret, Section, Show } from '../components';
import { time } from '../format';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

/** The token-issuing form's fields as the API takes them (`POST /api/v1/tokens`). */
function tokenRequest(form: FormData): { name: string; scopes: string[]; admin: boolean; expires_in_minutes?: number } {
  const minutes = String(form.get('expires') ?? '').trim();
  return {
    name: String(form.get('name') ?? '').trim(),
    scopes: form.getAll('scopes').map(String),
    admin: form.get('admin') === 'on',
    ...(minutes ? { expires_in_minutes: Number(minutes) } : {}),
  };
}

export function TokensPage({ api }: { api: Api }) {
  const tokens = useLoad(() => api.get<Items<Token>>('/api/v1/tokens'), 'tokens');
  const [issued, setIssued] = useState<CreatedToken | null>(null);
  const issue = useAction();
  const revoke = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    void issue.run(async () => {
      setIssued(await api.call<CreatedToken>('POST', '/api/v1/tokens', { body: tokenRequest(new FormData(form)) }));
      form.reset();
      tokens.reload();
    });
  };

  return (
    <>
      <Section title="Issue a token">
        <form onSubmit={submit}>
          <label for="token-name">Name</label>
          <input id="token-name" name="name" required maxLength={120} />
          <fieldset>
            <legend>Scopes</legend>
            <div class="choices">
              {SCOPES.map((scope) => (
                <label key={scope}>
                  <input type="checkbox" name="scopes" value={scope} /> {scope}
                </label>
              ))}
            </div>
          </fieldset>
          <label>
            <input type="checkbox" name="admin" /> Admin session (every scope, and tokens)
          </label>
          <label for="token-expires">Expires in minutes (empty: never)</label>
          <input id="token-expires" name="expires" type="number" min={1} max={5_256_000} inputMode="numeric" />
          <div class="actions">
            <button type="submit" disabled={issue.busy}>
              Issue token
            </button>
          </div>
        </form>
        {issue.busy && <Busy label="Issuing the token" />}
        <ErrorNote error={issue.error} />
        {issued && <OnceSecret label={`Token “${issued.name}”`} value={issued.token} />}
      </Section>
      <Section title="Live tokens">
        <ErrorNote error={revoke.error} />
        <Show loaded={tokens} label="tokens">
          {({ items }) =>
            items.length === 0 ? (
              <p>No token has been issued.</p>
            ) : (
              <div class="table-wrap" tabIndex={0} role="group" aria-label="Table (scrolls sideways)">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Scopes</th>
                      <th scope="col">Admin</th>
                      <th scope="col">Created</th>
                      <th scope="col">Expires</th>
                      <th scope="col">
                        <span class="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((token) => (
                      <tr key={token.id}>
                        <td>{token.name}</td>
                        <td>{token.scopes.join(', ') || 'none'}</td>
                        <td>{token.admin ? 'yes' : 'no'}</td>
                        <td>{time(token.created_at)}</td>
                        <td>{time(token.expires_at)}</td>
                        <td>
                          <ConfirmButton
                            label={`Revoke ${token.name}`}
                            confirm={`Revoke ${token.name} now`}
                            disabled={revoke.busy}
                            onConfirm={() =>
                              void revoke.run(async () => {
                                await api.call('DELETE', `/api/v1/tokens/${encodeURIComponent(token.id)}`);
                                tokens.reload();
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
    </>
  );
}
