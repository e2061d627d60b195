import { useState } from 'preact/hooks';
import type { Api, Query } from '../api';
import type { Action } from '../use-action';

interface ConfirmDeleteProps {
  api: Api;
  path: string;
  query?: Query;
  /** Called once the service has deleted it. */
  onDeleted: () => void;
  label: string;
  confirm: string;
  /** Runs the deletion: the page shows its progress and failure. */
  action: Action;
  disabled?: boolean;
}

/**
 * A deletion asks once more, in place: the first press arms it, the second sends `DELETE path` (with
 * `query`).
 */
export function ConfirmDelete({ api, path, query, onDeleted, label, confirm, action, disabled }: ConfirmDeleteProps) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return (
      <button type="button" class="danger" disabled={disabled} onClick={() => setArmed(true)}>
        {label}
      </button>
    );
  }
  const remove = async () => {
    await api.call('DELETE', path, { query });
    onDeleted();
  };
  return (
    <span class="actions" role="group" aria-label={confirm}>
      <button type="button" class="danger" onClick={() => (setArmed(false), void action.run(remove))}>
        {confirm}
      </button>
      <button type="button" class="quiet" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}
