import { useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { CopyButton } from '../components/copy';
import { Form, Submit } from '../components/form';
import { ActionNote } from '../components/notes';
import { fieldText } from '../field-text';
import { useMay } from '../may';
import { useAction } from '../use-action';

type Exported = Answer<'GET', '/api/v1/profiles/:id/cookies'>;
type Imported = Answer<'POST', '/api/v1/profiles/:id/cookies'>;

/**
 * A profile's cookies out and in (docs/cookies.md): an export shown to copy (it needs `secrets:read`,
 * and is audited), an import from pasted JSON or cookies.txt with the rows it did not take.
 */
export function ProfileCookies({ api, id }: { api: Api; id: string }) {
  const [exported, setExported] = useState<Exported | null>(null);
  const [imported, setImported] = useState<Imported | null>(null);
  const out = useAction();
  const into = useAction();
  const may = useMay();
  const [mayExport, mayImport] = [
    may('GET', '/api/v1/profiles/:id/cookies'),
    may('POST', '/api/v1/profiles/:id/cookies'),
  ];
  if (!mayExport && !mayImport) return null;
  return (
    <>
      <h3>Cookies</h3>
      {mayExport && (
        <>
          <Form
            label="Export the cookies"
            onSubmit={(fields) =>
              void out.run(async () => {
                const format = fieldText(fields, 'format') === 'netscape' ? 'netscape' : 'json';
                const domain = fieldText(fields, 'domain') || undefined;
                setExported(
                  await api.call('GET', '/api/v1/profiles/:id/cookies', { params: { id }, query: { format, domain } }),
                );
              })
            }
          >
            <label for={`cookies-format-${id}`}>Format</label>
            <select id={`cookies-format-${id}`} name="format">
              <option value="json">JSON (browser extensions)</option>
              <option value="netscape">cookies.txt (no SameSite)</option>
            </select>
            <label for={`cookies-domain-${id}`}>Only this domain (and its subdomains)</label>
            <input id={`cookies-domain-${id}`} name="domain" maxLength={253} />
            <Submit label="Export cookies" busy={out.busy} />
          </Form>
          <ActionNote action={out} busy="Reading the cookies" />
          {exported && (
            <>
              <p>
                {exported.count} cookie{exported.count === 1 ? '' : 's'}.
              </p>
              <textarea readOnly aria-label="The exported cookies" value={exported.content} />
              <CopyButton label="Copy the cookies" value={exported.content} />
            </>
          )}
        </>
      )}
      {mayImport && (
        <>
          <Form
            label="Import cookies"
            onSubmit={(fields, form) =>
              void into.run(async () => {
                const body = {
                  content: String(fields.get('content') ?? ''),
                  mode: fields.get('replace') === 'on' ? ('replace' as const) : ('merge' as const),
                };
                setImported(await api.call('POST', '/api/v1/profiles/:id/cookies', { params: { id }, body }));
                form.reset();
              })
            }
          >
            <label for={`cookies-content-${id}`}>
              Cookies (JSON from an extension, Playwright or Puppeteer, or cookies.txt)
            </label>
            <textarea id={`cookies-content-${id}`} name="content" required />
            <label>
              <input type="checkbox" name="replace" /> Replace: remove the profile's other cookies first
            </label>
            <Submit label="Import cookies" busy={into.busy} />
          </Form>
          <ActionNote action={into} busy="Writing the cookies" />
          {imported && (
            <>
              <p>
                Imported {imported.imported}, replaced {imported.replaced}, {imported.errors.length} row
                {imported.errors.length === 1 ? '' : 's'} not imported.
              </p>
              {imported.errors.length > 0 && (
                <ul class="warnings" aria-label="Rows not imported">
                  {imported.errors.map((error) => (
                    <li key={error.row}>
                      Row {error.row}: {error.message}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </>
      )}
    </>
  );
}
