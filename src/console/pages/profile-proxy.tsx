import { useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { Form, Submit } from '../components/form';
import { ActionNote } from '../components/notes';
import { fieldText } from '../field-text';
import { proxyBody } from '../profile-form';
import { useMay } from '../may';
import { useAction } from '../use-action';

type Profile = Answer<'GET', '/api/v1/profiles/:id'>;
type ProxyCheck = Answer<'POST', '/api/v1/profiles/:id/proxy/check'>;

const TYPES = ['http', 'https', 'socks4', 'socks5'] as const;

/**
 * A profile's proxy (docs/proxies.md): its fields, the password write-only (a stored one shows only as
 * stored), and a check that fetches a URL through it, as its browser would, with the result.
 */
export function ProfileProxy({ api, profile, onSaved }: { api: Api; profile: Profile; onSaved: () => void }) {
  const proxy = profile.proxy;
  const id = `proxy-${profile.id}`;
  const save = useAction();
  const check = useAction();
  const [result, setResult] = useState<ProxyCheck | null>(null);
  const may = useMay();
  return (
    <>
      <h3>Proxy</h3>
      <Form
        label="Proxy"
        onSubmit={(fields) =>
          void save.run(async () => {
            const body = { proxy: proxyBody(fields) };
            await api.call('PATCH', '/api/v1/profiles/:id', { params: { id: profile.id }, body });
            onSaved();
          })
        }
      >
        <label for={`${id}-type`}>Proxy type</label>
        {/* Preact takes no defaultValue on a select: the stored type is the option marked selected. */}
        <select id={`${id}-type`} name="proxy_type">
          <option value="">none</option>
          {TYPES.map((type) => (
            <option key={type} value={type} selected={proxy?.type === type}>
              {type}
            </option>
          ))}
        </select>
        <label for={`${id}-host`}>Proxy host</label>
        <input id={`${id}-host`} name="proxy_host" maxLength={253} defaultValue={proxy?.host ?? ''} />
        <label for={`${id}-port`}>Proxy port</label>
        <input id={`${id}-port`} name="proxy_port" type="number" min={1} max={65535} defaultValue={proxy?.port} />
        <label for={`${id}-username`}>Proxy username</label>
        <input
          id={`${id}-username`}
          name="proxy_username"
          maxLength={255}
          autocomplete="off"
          defaultValue={proxy?.username ?? ''}
        />
        <label for={`${id}-password`}>Proxy password</label>
        <input
          id={`${id}-password`}
          name="proxy_password"
          type="password"
          maxLength={255}
          autocomplete="new-password"
          placeholder={proxy?.password_set ? 'stored (blank keeps it)' : ''}
        />
        {proxy?.password_set && (
          <label>
            <input type="checkbox" name="proxy_password_remove" /> Remove the stored password
          </label>
        )}
        <Submit label="Save proxy" busy={save.busy} />
      </Form>
      <ActionNote action={save} busy="Saving the proxy" />
      {proxy && may('POST', '/api/v1/profiles/:id/proxy/check') && (
        <Form
          label="Check the proxy"
          onSubmit={(fields) =>
            void check.run(async () => {
              setResult(null);
              const body = { url: fieldText(fields, 'url') };
              setResult(
                await api.call('POST', '/api/v1/profiles/:id/proxy/check', { params: { id: profile.id }, body }),
              );
            })
          }
        >
          <label for={`${id}-check-url`}>Check URL</label>
          <input id={`${id}-check-url`} name="url" type="url" required defaultValue="https://example.com/" />
          <Submit label="Check proxy" busy={check.busy} />
        </Form>
      )}
      <ActionNote action={check} busy="Checking the proxy" />
      {result && (
        <p role="status" aria-label="Proxy check result" class={`note ${result.ok ? 'ok' : 'error'}`}>
          {result.ok
            ? `The site answered ${result.status} through the proxy in ${result.latency_ms} ms.`
            : `The check failed (${result.error_code}) after ${result.latency_ms} ms.`}
        </p>
      )}
    </>
  );
}
