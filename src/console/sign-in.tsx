import { useState } from 'preact/hooks';
import { createApi, typedApi } from './api';
import { Form } from './components/form';
import { ActionNote } from './components/notes';
import { fieldText } from './field-text';

/**
 * The token is tried on a route every token may read (`GET /api/v1/version`) before it is kept, so
 * a wrong one is told at once, with the API's own error.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function submit(fields: FormData) {
    const token = fieldText(fields, 'token');
    setBusy(true);
    setError(undefined);
    try {
      await typedApi(createApi(token)).call('GET', '/api/v1/version');
      onSignedIn(token);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in">
      <h1>LPA console</h1>
      <Form onSubmit={(fields) => void submit(fields)}>
        <label for="token">Token</label>
        <input id="token" name="token" type="password" autocomplete="off" spellcheck={false} required />
        <p class="muted">An API token (or the admin token from the data root). It is kept in this tab only.</p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ActionNote action={{ busy, error }} busy="Checking the token" />
      </Form>
    </main>
  );
}
