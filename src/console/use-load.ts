import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  busy: boolean;
  reload: () => void;
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
    loadRef.current().then(
      (data) => mine === generation.current && setState({ data, error: undefined, busy: false }),
      (error: unknown) =>
        mine === generation.current && setState((previous) => ({ data: previous.data, error, busy: false })),
    );
  }, []);

  useEffect(() => {
    reload();
    if (!refreshMs) return;
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [key, refreshMs, reload]);

  // A page that closes drops whatever it was still waiting for.
  useEffect(() => () => void ++generation.current, []);

  return { ...state, reload };
}
