import { useState } from 'preact/hooks';

export interface Action {
  busy: boolean;
  error: unknown;
  /** Runs one action; its failure is kept for the page to show, never thrown at it. */
  run: (work: () => Promise<void>) => Promise<void>;
  clear: () => void;
}

/** The state of a button's action: running (for its progress), and how it failed. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run, clear: () => setError(undefined) };
}
