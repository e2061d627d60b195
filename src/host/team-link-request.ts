import { z } from 'zod';
import { ApiError } from '../shared/errors/api-error';
import { Base64Bytes } from '../shared/schemas/base64';
import { TEAM_HEAD_HEADER } from '../shared/schemas/team';

/**
 * The largest team answer a machine takes: the largest any team route gives is an audit export,
 * 16 MiB of file as base64 in its JSON (about 21.4 MiB). A larger answer is not the team's API.
 */
export const TEAM_ANSWER_MAX_BYTES = 24 * 1024 * 1024;

/**
 * The headers a forwarded request may carry to the team besides what the host adds (the team token,
 * the Access service token, the machine id): the body's type, which of LPA's clients sent it, the
 * local token that was checked, and the local request id, so that both chains name one request.
 */
export const FORWARDED_HEADERS = ['content-type', 'x-lpa-client', 'x-lpa-local-token', 'x-lpa-request-id'] as const;

/** The headers of the team's answer that reach the local client. */
export const ANSWER_HEADERS = [
  'content-type',
  'x-request-id',
  TEAM_HEAD_HEADER,
  'retry-after',
  'content-disposition',
] as const;

/** One API request to the team, as the local pipeline hands it to the host (docs/teams.md#a-machine-in-a-team). */
export const TeamRequest = z.object({
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']),
  /** The path and query under the team's `/api/v1`, as the local request had them. */
  target: z
    .string()
    .regex(/^\/api\/v1\/[^#\s]*$/)
    .max(8192),
  headers: z.partialRecord(z.enum(FORWARDED_HEADERS), z.string().max(1024)),
  body: Base64Bytes.nullable(),
});
export type TeamRequest = z.output<typeof TeamRequest>;

/**
 * The team's answer, or why there was none: unreachable or timed out (the local service answers 503),
 * or `answered` but too large to take (502 `team.bad_answer`).
 */
export const TeamAnswer = z.discriminatedUnion('reachable', [
  z.object({
    reachable: z.literal(true),
    status: z.int().min(100).max(599),
    headers: z.partialRecord(z.enum(ANSWER_HEADERS), z.string()),
    body: Base64Bytes,
  }),
  z.object({ reachable: z.literal(false), reason: z.string(), answered: z.literal(true).optional() }),
]);
export type TeamAnswer = z.output<typeof TeamAnswer>;
export type TeamReply = Extract<TeamAnswer, { reachable: true }>;

/** The team's answer, or the local error for its absence: 503 `team.unreachable` (retry later), or 502 `team.bad_answer`. */
export function reached(answer: TeamAnswer): TeamReply {
  if (answer.reachable) return answer;
  if (answer.answered) throw new ApiError('team.bad_answer', { status: null, reason: answer.reason });
  throw new ApiError('team.unreachable', { reason: answer.reason }, undefined, { 'retry-after': '5' });
}

/** The code of a team's error envelope (at most 64 characters), or `fallback` when the body is none. */
export function teamErrorCode(json: unknown, fallback: string): string {
  const code = (json as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'string' ? code.slice(0, 64) : fallback;
}
