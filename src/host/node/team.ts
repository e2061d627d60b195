import { ANSWER_HEADERS, type TeamAnswer } from '../team-forward';
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

/** Past this, the team counts as unreachable: the local client gets 503 `team.unreachable` well within its own timeouts. */
export const TEAM_TIMEOUT_MS = 5_000;

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
      if (link.accessClientId && link.accessClientSecret) {
        headers.set('cf-access-client-id', link.accessClientId);
        headers.set('cf-access-client-secret', link.accessClientSecret);
      }
      const signal = AbortSignal.timeout(TEAM_TIMEOUT_MS);
      try {
        const response = await fetch(`${link.url}${request.target}`, { method: request.method, headers, body: request.body === null ? undefined : Buffer.from(request.body), signal, redirect: 'manual' });
        const body = new Uint8Array(await response.arrayBuffer());
        const answerHeaders: Partial<Record<(typeof ANSWER_HEADERS)[number], string>> = {};
        for (const name of ANSWER_HEADERS) {
          const value = response.headers.get(name);
          if (value !== null) answerHeaders[name] = value;
        }
        return { reachable: true, status: response.status, headers: answerHeaders, body } satisfies TeamAnswer;
      } catch (error) {
        const reason = signal.aborted ? `no answer within ${TEAM_TIMEOUT_MS} ms` : String((error as Error).cause ?? error);
        return { reachable: false, reason: reason.slice(0, 300) } satisfies TeamAnswer;
      }
    },
  };
}
