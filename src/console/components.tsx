import type { ComponentChildren } from 'preact';
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
