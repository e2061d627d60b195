import type { HostPort } from '../host/port';
import { HostRefusal } from '../host/port';
import { parseSeals, sealedBefore, sealLine, SEALS_FILE } from '../host/seal-record';
import type { LogRecord } from '../shared/logs/line';
import { teamPrefix, type TeamId } from './team-id';

/** Where a team's keys are kept: inside its Durable Object, wrapped (./team-keys.ts); the Worker has none. */
export type TeamKeys = HostPort['keys'];

/** What a team's host port is made of: the team, its bucket, and its keys where the caller holds them. */
export interface TeamHostParts {
  teamId: TeamId;
  bucket: R2Bucket;
  keys: TeamKeys;
}

const refuse = (what: string) => async (): Promise<never> => {
  throw new HostRefusal(`${what}: a team has no such thing on Cloudflare`);
};

/**
 * The host port of a team on Cloudflare (docs/teams.md#what-a-team-keeps-where). There is no machine:
 * the keys are the team object's own (wrapped), the audit's seal record is an object under the team's
 * prefix of the bucket, and log lines go to the Worker's console, which Workers Logs keeps
 * (`[observability]` in wrangler.toml). The routes of one machine (log files, automation files, disk)
 * are not served under `/teams/…` (src/teams/routes.ts), so what would serve them refuses.
 */
export function teamHost({ teamId, bucket, keys }: TeamHostParts): HostPort {
  const sealsKey = `${teamPrefix(teamId)}${SEALS_FILE}`;
  // The profiles' browser data (docs/teams.md#what-travels): `<profile id>/<version>/<part>` under it.
  const bundlesKey = `${teamPrefix(teamId)}bundles/`;
  const removeAll = async (prefix: string) => {
    for (let cursor: string | undefined; ; ) {
      const page = await bucket.list({ prefix, cursor });
      if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
      if (!page.truncated) return;
      cursor = page.cursor;
    }
  };
  const readSeals = async () => {
    const object = await bucket.get(sealsKey);
    return { text: object ? await object.text() : '', etag: object?.etag ?? null };
  };
  return {
    disk: { free: refuse('disk') },
    keys,
    files: {
      list: refuse('automation files'),
      write: refuse('automation files'),
      read: refuse('automation files'),
      problems: async () => [],
    },
    logs: {
      append: async (stream, records) => {
        for (const record of records) console.log(JSON.stringify(logLine(teamId, stream, record)));
      },
      list: async () => [],
      tail: async () => null,
      cleanup: async () => ({ removed: [], failed: [] }),
      problems: async () => [],
    },
    team: { forward: refuse('forwarding to a team') },
    // A team runs no browsers: its routes have no runs (src/teams/routes.ts).
    runs: {
      browser: async () => ({ found: false, problem: 'a team service runs no browsers' }),
      start: refuse('browsers'),
      stop: refuse('browsers'),
      list: async () => ({ live: [], starting: [], ended: [] }),
      screenshot: refuse('browsers'),
      step: refuse('browsers'),
      checkProxy: refuse('browsers'),
      answers: async () => false,
      pack: refuse('browsers'),
      unpack: refuse('browsers'),
      // A deleted profile's browser data, on a team: every version of it in the bucket.
      forget: (profileId) => removeAll(`${bundlesKey}${profileId}/`),
    },
    bundles: {
      put: async (name, bytes) => {
        await bucket.put(`${bundlesKey}${name}`, bytes);
      },
      get: async (name) => {
        const object = await bucket.get(`${bundlesKey}${name}`);
        return object ? new Uint8Array(await object.arrayBuffer()) : null;
      },
      remove: (folder) => removeAll(`${bundlesKey}${folder}`),
    },
    synchronizer: {
      start: refuse('browsers'),
      stop: refuse('browsers'),
      remove: refuse('browsers'),
      status: refuse('browsers'),
    },
    cookies: { read: refuse('browsers'), write: refuse('browsers') },
    seals: {
      read: async () => parseSeals((await readSeals()).text),
      /**
       * R2 has no append: the record is read, extended and written back only if nobody wrote it in
       * between (its etag), and only the team's object writes it. A second seal of a day is refused.
       */
      async append(seal) {
        const { text, etag } = await readSeals();
        if (sealedBefore(parseSeals(text), seal)) throw new HostRefusal(`${seal.day} is already sealed`);
        const onlyIf = etag === null ? new Headers({ 'if-none-match': '*' }) : { etagMatches: etag };
        const written = await bucket.put(sealsKey, `${text}${sealLine(seal)}`, { onlyIf });
        if (written === null) throw new Error('the seal record changed while a seal was appended');
      },
    },
  };
}

/** One log line as Workers Logs keeps it: the team and stream beside the record's own fields. */
function logLine(teamId: TeamId, stream: string, record: LogRecord) {
  return {
    team_id: teamId,
    stream,
    ts: new Date(record.ts).toISOString(),
    level: record.level,
    message: record.message,
    fields: record.fields,
  };
}
