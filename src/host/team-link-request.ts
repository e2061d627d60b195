import { z } from 'zod';
import { ApiError } from '../shared/errors/api-error';
import { Base64Bytes } from '../shared/schemas/base64';
import { UUID } from '../shared/schemas/ids';
import { TEAM_HEAD_HEADER, TEAM_HEAD_VALUE } from '../shared/schemas/team';

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

/** A header value of printable ASCII, at most `max` characters. */
const printable = (max: number) => z.string().regex(new RegExp(`^[\\x20-\\x7e]{1,${max}}$`));

/**
 * The headers of the team's answer that this machine takes (they reach the local client, and the
 * request id and the head are recorded in its chain), each in the form the team API gives it. The
 * host drops a value that is not (a hostile team's 7,000-character request id, a control character
 * read from a byte past ASCII): nothing out of form is kept, passed on or printed.
 */
export const TeamAnswerHeaders = z
  .object({
    'content-type': printable(200),
    /** The team's request id, a UUID (docs/requests.md#the-steps). */
    'x-request-id': z.string().regex(UUID),
    [TEAM_HEAD_HEADER]: z.string().regex(TEAM_HEAD_VALUE),
    /** Seconds, as the team service writes it. */
    'retry-after': z.string().regex(/^[0-9]{1,6}$/),
    /** `attachment; filename="lpa-audit-….jsonl"` of an export. */
    'content-disposition': printable(300),
  })
  .partial();
export type TeamAnswerHeaders = z.output<typeof TeamAnswerHeaders>;
export const ANSWER_HEADERS = TeamAnswerHeaders.keyof().options;

/**
 * The form of an error code: dotted lower-case words, as every code of the catalogue
 * (src/shared/errors/catalog.ts) is. A team of another version may send codes this machine does
 * not know, so the form is checked, not the list.
 */
export const ErrorCodeForm = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*$/);

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
    headers: TeamAnswerHeaders,
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

/** The code of a team's error envelope, or `fallback` when the body has none in the form of one. */
export function teamErrorCode(json: unknown, fallback: string): string {
  const code = ErrorCodeForm.safeParse((json as { error?: { code?: unknown } } | null)?.error?.code);
  return code.success ? code.data : fallback;
}
