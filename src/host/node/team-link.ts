import { concatBytes } from '../../shared/bytes';
import { ANSWER_HEADERS, TEAM_ANSWER_MAX_BYTES, TeamAnswerHeaders, type TeamAnswer } from '../team-link-request';
import { HostRefusal, type HostPort } from '../port';

/** How this machine reaches its team (src/runtimes/launcher/team-settings.ts). */
export interface TeamLink {
  /** `https://…/teams/<team_id>`: the team's API is under it, at `/api/v1/…`. */
  url: string;
  /** The team token issued to this machine. */
  token: string;
  /** An Access service token, when Cloudflare Access asks for one in front of the team. */
  accessClientId: string | null;
  accessClientSecret: string | null;
  /** This machine's stable id (`<data root>/machine-id`), recorded with each of its writes in the team's chain. */
  machineId: string;
}

/**
 * Past this without the answer's head, or with its body stopped as long, the team counts as
 * unreachable: the local client gets 503 `team.unreachable` well within its own timeouts.
 */
export const TEAM_TIMEOUT_MS = 5_000;
/** The whole answer ends within this: a body that keeps trickling does not hold the client longer. */
export const TEAM_ANSWER_MS = 30_000;

/**
 * The host's side of a joined machine: each forwarded request is an ordinary HTTPS request to the
 * team's API, with the team token and, where set, the Access service token's headers. Nothing is
 * queued or retried: a request the team did not answer in time is answered 503 and may be sent again
 * by the client (a write the team did apply shows in its chain and, for a global, in its revision).
 */
export function nodeTeam(link: TeamLink | null): HostPort['team'] {
  return {
    async forward(request) {
      if (!link) throw new HostRefusal('this machine has joined no team');
      const headers = new Headers(request.headers as Record<string, string>);
      headers.set('authorization', `Bearer ${link.token}`);
      headers.set('x-lpa-machine', link.machineId);
      // fetch asks for gzip by default. Across a network that saves more time than the team's and
      // this machine's zlib cost; to this machine's own team service (the only one http:// may name,
      // src/shared/team-link.ts) it saves nothing and costs both sides CPU on every request.
      if (link.url.startsWith('http://')) headers.set('accept-encoding', 'identity');
      if (link.accessClientId && link.accessClientSecret) {
        headers.set('cf-access-client-id', link.accessClientId);
        headers.set('cf-access-client-secret', link.accessClientSecret);
      }
      // Two bounds: no 5 s without progress (the head, then each piece of the body), and 30 s in all.
      const stalled = new AbortController();
      let timer = setTimeout(() => stalled.abort(), TEAM_TIMEOUT_MS);
      const progressed = () => {
        clearTimeout(timer);
        timer = setTimeout(() => stalled.abort(), TEAM_TIMEOUT_MS);
      };
      const whole = AbortSignal.timeout(TEAM_ANSWER_MS);
      let headed = false;
      try {
        const signal = AbortSignal.any([stalled.signal, whole]);
        const response = await fetch(`${link.url}${request.target}`, {
          method: request.method,
          headers,
          body: request.body === null ? undefined : Buffer.from(request.body),
          signal,
          redirect: 'manual',
        });
        headed = true;
        progressed();
        const body = await boundedBody(response, progressed);
        if (body === null)
          return {
            reachable: false,
            answered: true,
            reason: `the team's answer is larger than ${TEAM_ANSWER_MAX_BYTES / 1024 / 1024} MiB`,
          } satisfies TeamAnswer;
        const answerHeaders: TeamAnswerHeaders = {};
        for (const name of ANSWER_HEADERS) {
          // A value out of its form is dropped here, before anything keeps, passes on or prints it.
          const value = TeamAnswerHeaders.shape[name].safeParse(response.headers.get(name) ?? undefined);
          if (value.success && value.data !== undefined) answerHeaders[name] = value.data;
        }
        return { reachable: true, status: response.status, headers: answerHeaders, body } satisfies TeamAnswer;
      } catch (error) {
        const reason = whole.aborted
          ? `the team's answer did not end within ${TEAM_ANSWER_MS} ms`
          : stalled.signal.aborted
            ? headed
              ? `the team's answer stopped for ${TEAM_TIMEOUT_MS} ms`
              : `no answer within ${TEAM_TIMEOUT_MS} ms`
            : String((error as Error).cause ?? error);
        return { reachable: false, reason: reason.slice(0, 300) } satisfies TeamAnswer;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The answer's body, read piece by piece (each one `progressed`); null once it passes TEAM_ANSWER_MAX_BYTES, and the rest is not read. */
async function boundedBody(response: Response, progressed: () => void): Promise<Uint8Array | null> {
  if (Number(response.headers.get('content-length') ?? 0) > TEAM_ANSWER_MAX_BYTES) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    progressed();
    size += value.byteLength;
    if (size > TEAM_ANSWER_MAX_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return concatBytes(chunks, size);
}
