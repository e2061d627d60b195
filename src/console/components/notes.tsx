import { ApiFailure } from '../api';
import type { Action } from '../use-action';

/**
 * A failure as a person reads it: the envelope's message and code (and request id, for the logs);
 * a missing scope says which scopes the token lacks, so the page is limited, not broken.
 */
export function ErrorNote({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  if (error instanceof ApiFailure && error.missingScopes.length > 0) {
    return (
      <p class="note scope" role="status">
        This token lacks the scope{error.missingScopes.length > 1 ? 's' : ''}{' '}
        <strong>{error.missingScopes.join(', ')}</strong> that this part needs. <code>{error.code}</code>
      </p>
    );
  }
  if (error instanceof ApiFailure && error.code === 'auth.admin_required') {
    return (
      <p class="note scope" role="status">
        This part needs an admin session (the admin token, or a token issued as admin). <code>{error.code}</code>
      </p>
    );
  }
  const failure = error instanceof ApiFailure ? error : new ApiFailure(0, 'console.error', String(error));
  return (
    <p class="note error" role="alert">
      {failure.message} <code>{failure.code}</code>
      {failure.requestId && <span class="muted"> (request {failure.requestId})</span>}
    </p>
  );
}

/** A long action's progress, announced to screen readers; without a fraction it is indeterminate. */
export function Busy({ label, value, max }: { label: string; value?: number; max?: number }) {
  return (
    <div class="busy" role="status">
      <progress aria-label={label} value={value} max={max} /> <span>{label}</span>
    </div>
  );
}

/** Where an action stands under the control that started it: its progress while it runs, then how it failed. */
export function ActionNote({ action, busy }: { action: Pick<Action, 'busy' | 'error'>; busy: string }) {
  return (
    <>
      {action.busy && <Busy label={busy} />}
      <ErrorNote error={action.error} />
    </>
  );
}
