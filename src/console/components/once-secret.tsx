import { useState } from 'preact/hooks';

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
