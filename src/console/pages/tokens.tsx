import { useState } from 'preact/hooks';
import { SCOPES } from '../../shared/scopes';
import type { Api } from '../api';
import type { CreatedToken, Items, Token } from '../api-types';
import { ConfirmDelete } from '../components/confirm-delete';
import { Choices, Form, Submit } from '../components/form';
import { ActionNote, ErrorNote } from '../components/notes';
import { OnceSecret } from '../components/once-secret';
import { Section } from '../components/section';
import { ItemsTable } from '../components/table';
import { fieldText } from '../field-text';
import { time } from '../format';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

/** The token-issuing form's fields as the API takes them (`POST /api/v1/tokens`). */
function tokenRequest(form: FormData): { name: string; scopes: string[]; admin: boolean; expires_in_minutes?: number } {
  const minutes = fieldText(form, 'expires');
  return {
    name: fieldText(form, 'name'),
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

  return (
    <>
      <Section title="Issue a token">
        <Form
          onSubmit={(fields, form) =>
            void issue.run(async () => {
              setIssued(await api.call<CreatedToken>('POST', '/api/v1/tokens', { body: tokenRequest(fields) }));
              form.reset();
              tokens.reload();
            })
          }
        >
          <label for="token-name">Name</label>
          <input id="token-name" name="name" required maxLength={120} />
          <Choices legend="Scopes" name="scopes" choices={SCOPES.map((scope) => [scope, scope] as const)} />
          <label>
            <input type="checkbox" name="admin" /> Admin session (every scope, and tokens)
          </label>
          <label for="token-expires">Expires in minutes (empty: never)</label>
          <input id="token-expires" name="expires" type="number" min={1} max={5_256_000} inputMode="numeric" />
          <Submit label="Issue token" busy={issue.busy} />
        </Form>
        <ActionNote action={issue} busy="Issuing the token" />
        {issued && <OnceSecret label={`Token “${issued.name}”`} value={issued.token} />}
      </Section>
      <Section title="Live tokens">
        <ErrorNote error={revoke.error} />
        <ItemsTable
          loaded={tokens}
          label="tokens"
          columns={['Name', 'Scopes', 'Admin', 'Created', 'Expires']}
          rowKey={(token) => token.id}
          cells={(token) => [
            token.name,
            token.scopes.join(', ') || 'none',
            token.admin ? 'yes' : 'no',
            time(token.created_at),
            time(token.expires_at),
          ]}
          actions={(token) => (
            <ConfirmDelete
              api={api}
              path={`/api/v1/tokens/${encodeURIComponent(token.id)}`}
              onDeleted={tokens.reload}
              label={`Revoke ${token.name}`}
              confirm={`Revoke ${token.name} now`}
              disabled={revoke.busy}
              action={revoke}
            />
          )}
          empty="No token has been issued."
        />
      </Section>
    </>
  );
}
