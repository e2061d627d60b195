import { useState } from 'preact/hooks';
import type { Action } from '../use-action';

interface ConfirmDeleteProps {
  /** The deletion's call, e.g. `() => api.call('DELETE', '/api/v1/tokens/:id', { params: { id } })`. */
  remove: () => Promise<unknown>;
  /** Called once the service has deleted it. */
  onDeleted: () => void;
  label: string;
  confirm: string;
  /** Runs the deletion: the page shows its progress and failure. */
  action: Action;
  disabled?: boolean;
}

/** A deletion asks once more, in place: the first press arms it, the second calls `remove`. */
export function ConfirmDelete({ remove, onDeleted, label, confirm, action, disabled }: ConfirmDeleteProps) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return (
      <button type="button" class="danger" disabled={disabled} onClick={() => setArmed(true)}>
        {label}
      </button>
    );
  }
  const confirmed = async () => {
    await remove();
    onDeleted();
  };
  return (
    <span class="actions" role="group" aria-label={confirm}>
      <button type="button" class="danger" onClick={() => (setArmed(false), void action.run(confirmed))}>
        {confirm}
      </button>
      <button type="button" class="quiet" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}
