import { type Cookie, cookieKey } from '../../../shared/cookies/cookie';
import type { CookieImportMode } from '../../cookies-schema';
import type { DevtoolsRelay } from './devtools-relay';

/** A cookie as DevTools' Storage domain answers it (Network.Cookie): a leading dot on a domain cookie. */
interface DevtoolsCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  partitionKey?: unknown;
}

const SAME_SITE = { strict: 'Strict', lax: 'Lax', none: 'None' } as const;

function fromDevtools(cookie: DevtoolsCookie): Cookie {
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain.replace(/^\./, ''),
    host_only: !cookie.domain.startsWith('.'),
    path: cookie.path,
    secure: cookie.secure,
    http_only: cookie.httpOnly,
    same_site: cookie.sameSite ? (cookie.sameSite.toLowerCase() as Cookie['same_site']) : null,
    expires: cookie.session ? null : cookie.expires,
  };
}

/** Storage.setCookies' cookie: a domain without a dot makes a host-only cookie, with one a domain cookie. */
const toDevtools = (cookie: Cookie) => ({
  name: cookie.name,
  value: cookie.value,
  domain: cookie.host_only ? cookie.domain : `.${cookie.domain}`,
  path: cookie.path,
  secure: cookie.secure,
  httpOnly: cookie.http_only,
  ...(cookie.same_site === null ? {} : { sameSite: SAME_SITE[cookie.same_site] }),
  ...(cookie.expires === null ? {} : { expires: cookie.expires }),
});

/**
 * Every cookie of the browser (its default context), on the browser target. Partitioned cookies
 * (CHIPS) are left out: no format LPA reads or writes carries their partition (docs/cookies.md).
 */
async function allCookies(relay: DevtoolsRelay): Promise<DevtoolsCookie[]> {
  const { cookies } = await relay.call<{ cookies: DevtoolsCookie[] }>('Storage.getCookies');
  return cookies.filter((cookie) => cookie.partitionKey === undefined);
}

export async function readJar(relay: DevtoolsRelay): Promise<{ cookies: Cookie[] }> {
  return { cookies: (await allCookies(relay)).map(fromDevtools) };
}

/**
 * Sets `cookies` (with `replace`, after removing every other), each whole or not at all: the browser
 * takes a batch in one piece, so when it refuses one they are set one by one, to name those it refuses.
 * A session cookie set in a short browser would end with it, so it is refused there.
 */
export async function writeJar(
  relay: DevtoolsRelay,
  running: boolean,
  cookies: readonly Cookie[],
  mode: CookieImportMode,
): Promise<{ replaced: number; refused: { index: number; message: string }[] }> {
  const refused: { index: number; message: string }[] = [];
  const wanted = cookies.flatMap((cookie, index) => {
    if (running || cookie.expires !== null) return [{ cookie, index }];
    refused.push({
      index,
      message: 'a session cookie (no expiry) lasts only while the browser runs: start the profile first',
    });
    return [];
  });
  const before = (await allCookies(relay)).map(fromDevtools);
  if (mode === 'replace') await relay.call('Storage.clearCookies');
  try {
    await relay.call('Storage.setCookies', { cookies: wanted.map(({ cookie }) => toDevtools(cookie)) });
  } catch {
    for (const { cookie, index } of wanted) {
      await relay.call('Storage.setCookies', { cookies: [toDevtools(cookie)] }).catch((error: Error) => {
        refused.push({ index, message: `the browser refused it: ${error.message}` });
      });
    }
  }
  const set = new Set(cookies.map((_, index) => index));
  for (const { index } of refused) set.delete(index);
  const existed = new Set(before.map(cookieKey));
  const replaced =
    mode === 'replace'
      ? before.length
      : new Set(cookies.filter((cookie, index) => set.has(index) && existed.has(cookieKey(cookie))).map(cookieKey))
          .size;
  return { replaced, refused: refused.sort((a, b) => a.index - b.index) };
}
