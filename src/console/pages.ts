import type { FunctionComponent } from 'preact';
import type { Api } from './api';
import { AuditPage } from './pages/audit';
import { AutomationPage } from './pages/automation';
import { LogsPage } from './pages/logs';
import { ProfilesPage } from './pages/profiles';
import { StatusPage } from './pages/status';
import { TokensPage } from './pages/tokens';

export interface Page {
  name: string;
  /** Its hash route: `#/<slug>`. */
  slug: string;
  component: FunctionComponent<{ api: Api }>;
}

/** The navigation, in order; the first is the landing page. */
export const PAGES: readonly [Page, ...Page[]] = [
  { name: 'Status', slug: 'status', component: StatusPage },
  { name: 'Profiles', slug: 'profiles', component: ProfilesPage },
  { name: 'Automation', slug: 'automation', component: AutomationPage },
  { name: 'Audit', slug: 'audit', component: AuditPage },
  { name: 'Logs', slug: 'logs', component: LogsPage },
  { name: 'Tokens', slug: 'tokens', component: TokensPage },
];

/** The page a location hash names; an unknown or empty hash lands on the first. */
export function pageFor(hash: string): Page {
  const slug = hash.replace(/^#\/?/, '');
  return PAGES.find((page) => page.slug === slug) ?? PAGES[0];
}
