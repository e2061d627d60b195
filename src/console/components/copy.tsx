import { useState } from 'preact/hooks';

/**
 * A button that puts `value` on the clipboard, and says beside it (a status, for screen readers too)
 * whether the browser let it; when it did not, the text stays there to select by hand.
 */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<string>('');
  return (
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
        {label}
      </button>
      <span role="status">{copied}</span>
    </div>
  );
}
