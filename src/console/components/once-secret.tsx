import { CopyButton } from './copy';

/**
 * A secret shown once (a new token, a share code): readable, selectable, with a copy button, and a
 * reminder that it is not shown again.
 */
export function OnceSecret({ label, value }: { label: string; value: string }) {
  return (
    <div class="note ok" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong> — shown once; keep it now.
      </p>
      <p class="secret" data-secret>
        {value}
      </p>
      <CopyButton value={value} />
    </div>
  );
}
