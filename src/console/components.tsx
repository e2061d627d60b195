import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiFailure } from './api';
import type { Loaded } from './use-load';

/**
 * A failure as a person reads it: the envelope's message and code (and request id, for the logs);
 * a missing scope says which scopes the token lacks, so the page is limited, not broken.
 */
export function ErrorNote({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  if (error instanceof ApiFailure && error.missingScopes.length > 0) {
    return (
      <p class="note scope" role="status">
        This token lacks the scope{error.missingScopes.length > 1 ? 's' : ''} <strong>{error.missingScopes.join(', ')}</strong> that this part needs.{' '}
        <code>{error.code}</code>
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

/** Label–value pairs, as a description list. */
export function Facts({ items }: { items: [string, ComponentChildren][] }) {
  return (
    <dl class="facts">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** What a load brought, its failure, or its progress while the first answer is awaited. */
export function Show<T>({ loaded, label, children }: { loaded: Loaded<T>; label: string; children: (data: T) => ComponentChildren }) {
  return (
    <>
      <ErrorNote error={loaded.error} />
      {loaded.data === undefined ? loaded.busy && <Busy label={`Loading ${label}`} /> : children(loaded.data)}
    </>
  );
}

/** A destructive action asks once more, in place: the first press arms it, the second does it. */
export function ConfirmButton({ label, confirm, onConfirm, disabled }: { label: string; confirm: string; onConfirm: () => void; disabled?: boolean }) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return (
      <button type="button" class="danger" disabled={disabled} onClick={() => setArmed(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class="actions" role="group" aria-label={confirm}>
      <button type="button" class="danger" onClick={() => (setArmed(false), onConfirm())}>
        {confirm}
      </button>
      <button type="button" class="quiet" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}

/**
 * A secret shown once (a new token, a share code): readable, selectable, with a copy button, and a
 * reminder that it is not shown again.
 */
export function OnceSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<string>('');
  return (
    <div class="note ok" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong> — shown once; keep it now.
      </p>
      <p class="secret" data-secret>
        {value}
      </p>
      <div class="actions">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(value).then(
              () => setCopied('Copied.'),
              () => setCopied('The browser refused the clipboard; select the text and copy it.'),
            )
          }
        >
          Copy
        </button>
        <span role="status">{copied}</span>
      </div>
    </div>
  );
}
