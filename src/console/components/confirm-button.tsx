import { useState } from 'preact/hooks';
import type { Action } from '../use-action';

/**
 * A destructive action asks once more, in place: the first press arms it, the second runs
 * `onConfirm` as `action` (whose progress and failure the page shows).
 */
export function ConfirmButton({ label, confirm, action, onConfirm, disabled }: { label: string; confirm: string; action: Action; onConfirm: () => Promise<void>; disabled?: boolean }) {
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
      <button type="button" class="danger" onClick={() => (setArmed(false), void action.run(onConfirm))}>
        {confirm}
      </button>
      <button type="button" class="quiet" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}
