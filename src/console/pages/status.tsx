import type { Api } from '../api';
import { Facts, FactsSection, Section, Show } from '../components/section';
import { bytes, time, yesNo } from '../format';
import { useLoad } from '../use-load';

/** How often the page asks again while it is open. */
const REFRESH_MS = 5_000;

export function StatusPage({ api }: { api: Api }) {
  const reach = useLoad(() => api.call('GET', '/status'), 'status', REFRESH_MS);
  const versions = useLoad(() => api.call('GET', '/api/v1/version'), 'version', REFRESH_MS);
  const core = useLoad(() => api.call('GET', '/api/v1/system/status'), 'core', REFRESH_MS);
  const account = useLoad(() => api.call('GET', '/api/v1/account/status'), 'account', REFRESH_MS);

  return (
    <>
      <p class="muted">Refreshed every {REFRESH_MS / 1000} seconds while this page is open.</p>
      <Section title="Core">
        <Show loaded={core} label="core status">
          {(status) => (
            <>
              <Facts
                items={[
                  ['Mode', <span class={`badge ${status.mode}`}>{status.mode}</span>],
                  ['Reason', status.reason ?? 'none'],
                  ['API', status.api.url],
                  ['Data root', <code>{status.data_root}</code>],
                  ['Store id', <code>{status.store_id}</code>],
                  ['Vault', `${status.vault.state}${status.vault.reason ? ` (${status.vault.reason})` : ''}`],
                  ['Disk', `${status.disk}, ${bytes(status.disk_free_bytes)} free`],
                ]}
              />
              {status.warnings.length > 0 && (
                <ul class="warnings" aria-label="Warnings">
                  {status.warnings.map((warning) => (
                    <li key={warning}>{warning}</li>
                  ))}
                </ul>
              )}
            </>
          )}
        </Show>
      </Section>
      <FactsSection
        title="Versions"
        loaded={versions}
        label="versions"
        facts={(v) => [
          ['Application', v.app_version],
          ['API', String(v.api_version)],
          ['Database schema', String(v.db_version)],
          [
            'Reachability',
            reach.data ? `${reach.data.status} (${reach.data.version})` : reach.error ? 'unreachable' : 'checking',
          ],
        ]}
      />
      <FactsSection
        title="Membership"
        loaded={account}
        label="membership"
        facts={(status) => [
          ['Signed in', yesNo(status.authenticated)],
          ['Offline', yesNo(status.offline)],
          ['Plan', status.account?.membership.plan ?? 'none'],
          ['Verified until', time(status.verifiedUntil)],
          ['Error', status.error ?? 'none'],
        ]}
      />
    </>
  );
}
