import { useState } from 'preact/hooks';
import { SCOPES } from '../../shared/scopes';
import type { Api, Answer, Input } from '../api';
import { ConfirmDelete } from '../components/confirm-delete';
import { Choices, Form, Submit } from '../components/form';
import { ActionNote, ErrorNote } from '../components/notes';
import { OnceSecret } from '../components/once-secret';
import { Section } from '../components/section';
import { ItemsTable } from '../components/table';
import { fieldText } from '../field-text';
import { time } from '../format';
import { useMay } from '../may';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

/** The token-issuing form's fields as the API takes them (the scopes ticked, in the boxes' order). */
function tokenRequest(form: FormData): Input<'POST', '/api/v1/tokens'>['body'] {
  const minutes = fieldText(form, 'expires');
  return {
    name: fieldText(form, 'name'),
    scopes: SCOPES.filter((scope) => form.getAll('scopes').includes(scope)),
    admin: form.get('admin') === 'on',
    ...(minutes ? { expires_in_minutes: Number(minutes) } : {}),
  };
}

export function TokensPage({ api }: { api: Api }) {
  const tokens = useLoad(() => api.call('GET', '/api/v1/tokens'), 'tokens');
  const [issued, setIssued] = useState<Answer<'POST', '/api/v1/tokens'> | null>(null);
  const issue = useAction();
  const revoke = useAction();
  const may = useMay();

  return (
    <>
      {may('POST', '/api/v1/tokens') && (
        <Section title="Issue a token">
          <Form
            onSubmit={(fields, form) =>
              void issue.run(async () => {
                setIssued(await api.call('POST', '/api/v1/tokens', { body: tokenRequest(fields) }));
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
      )}
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
          actions={
            may('DELETE', '/api/v1/tokens/:id')
              ? (token) => (
                  <ConfirmDelete
                    remove={() => api.call('DELETE', '/api/v1/tokens/:id', { params: { id: token.id } })}
                    onDeleted={tokens.reload}
                    label={`Revoke ${token.name}`}
                    confirm={`Revoke ${token.name} now`}
                    disabled={revoke.busy}
                    action={revoke}
                  />
                )
              : undefined
          }
          empty="No token has been issued."
        />
      </Section>
    </>
  );
}
