import type { ComponentChildren } from 'preact';
import type { Loaded } from '../use-load';
import { Busy, ErrorNote } from './notes';

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** What a load brought, its failure, or its progress while the first answer is awaited. */
export function Show<T>({
  loaded,
  label,
  children,
}: {
  loaded: Loaded<T>;
  label: string;
  children: (data: T) => ComponentChildren;
}) {
  return (
    <>
      <ErrorNote error={loaded.error} />
      {loaded.data === undefined ? loaded.busy && <Busy label={`Loading ${label}`} /> : children(loaded.data)}
    </>
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

/** A section that shows one load as label–value pairs; `children` come after them (a control, a note). */
export function FactsSection<T>({
  title,
  loaded,
  label,
  facts,
  children,
}: {
  title: string;
  loaded: Loaded<T>;
  label: string;
  facts: (data: T) => [string, ComponentChildren][];
  children?: ComponentChildren;
}) {
  return (
    <Section title={title}>
      <Show loaded={loaded} label={label}>
        {(data) => <Facts items={facts(data)} />}
      </Show>
      {children}
    </Section>
  );
}
