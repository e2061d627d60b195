import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  busy: boolean;
  /** Loads again; settles once the answer is shown (or dropped for a newer one), never rejects. */
  reload: () => Promise<void>;
}

/** Calls `work` every `ms` while the component is shown and `ms` is given (a page open, a run alive). */
export function useEvery(ms: number | undefined, work: () => void): void {
  useEffect(() => {
    if (!ms) return;
    const timer = setInterval(work, ms);
    return () => clearInterval(timer);
  }, [ms, work]);
}

/**
 * Loads what a page shows, again when `key` changes or `reload()` is called, and every `refreshMs`
 * while the page is open. An answer that arrives after a newer load started is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, key: string, refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; busy: boolean }>({
    data: undefined,
    error: undefined,
    busy: true,
  });
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, busy: true }));
    return loadRef.current().then(
      (data) => void (mine === generation.current && setState({ data, error: undefined, busy: false })),
      (error: unknown) =>
        void (mine === generation.current && setState((previous) => ({ data: previous.data, error, busy: false }))),
    );
  }, []);

  // `key` names what is loaded: a new one loads again.
  useEffect(() => void reload(), [key, reload]);
  useEvery(refreshMs, reload);

  // A page that closes drops whatever it was still waiting for.
  useEffect(() => () => void ++generation.current, []);

  return { ...state, reload };
}
