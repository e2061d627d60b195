import { z } from 'zod';
import { escapeUnsafe, UNSAFE_CHARACTERS } from '../unicode';
import { isSecretKey, REDACTED, sanitizeText } from './sanitize';

export const LogLevel = z.enum(['info', 'warn', 'error']);
export type LogLevel = z.output<typeof LogLevel>;

/** One line of a log, before it is formatted; the host port takes it so (`logs.append`, src/host/operations.ts). */
export const LogRecord = z.object({
  /** Epoch milliseconds, within the range of a Date; it also picks the daily file. */
  ts: z.int().min(0).max(8.64e15),
  level: LogLevel,
  message: z.string(),
  fields: z.record(z.string(), z.unknown()).optional(),
});
export type LogRecord = z.output<typeof LogRecord>;
export type LogFields = NonNullable<LogRecord['fields']>;

/**
 * Longest message or field value kept; a log line is for people, not a place to dump payloads. Cut
 * after redaction, so that a cut never leaves part of a secret unrecognised.
 */
const MAX_TEXT = 4096;

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** What a message may hold and still be written bare: no quote, backslash, other white space or unsafe character. */
const PLAIN_CHAR = String.raw`[^"\\\s${UNSAFE_CHARACTERS}]`;
const PLAIN = new RegExp(`^${PLAIN_CHAR}*(?: ${PLAIN_CHAR}*)*$`, 'u');
/** A field name and `=` at the start of a word: what a reader takes for a field. */
const FIELD_START = /(?:^| )[A-Za-z0-9_.-]*=/;

/** JSON string syntax, with every unsafe character (src/shared/unicode.ts) as `\uXXXX` (JSON leaves some of them raw). */
const quoted = (text: string): string => escapeUnsafe(JSON.stringify(text));

/** A message is bare when it reads as one: else one JSON string, so that no request can forge a field. */
const messageText = (text: string) =>
  text !== '' && PLAIN.test(text) && !FIELD_START.test(text) ? text : quoted(text);

/** A list of names or numbers reads best comma-separated; anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  const plainList =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === 'number' || (typeof item === 'string' && /^[^,\s]+$/.test(item)));
  return plainList ? value.join(',') : JSON.stringify(value);
}

/**
 * Lower-case letters, digits, `.` and `-` only (a number, an address, a UUID, an actor type): no
 * separator, scheme, `lpa_` or upper case that a redaction rule needs, so sanitizeText would return
 * it unchanged; except a run of 16 digits 2–7, which reads as a base32 secret, and a leading `-p` (`-pPASS`). The `api` log writes
 * six such values per line, and the rules cost most of the launcher's time per line.
 */
const NOTHING_TO_REDACT = /^(?!-p)[a-z0-9.-]*$/;
const BASE32_RUN = /[2-7]{16}/;
const redacted = (text: string) => (NOTHING_TO_REDACT.test(text) && !BASE32_RUN.test(text) ? text : sanitizeText(text));

function fieldValue(value: unknown): string {
  if (value === null || value === undefined) return '-';
  const text = clip(redacted(asText(value)));
  // Bare only as one plain word without `=`, so that most values read plainly and none is misread.
  return text !== '' && text !== '-' && !/[ =]/.test(text) && PLAIN.test(text) ? text : quoted(text);
}

/**
 * The one line format of every LPA log: `<ISO time> <LEVEL> <message> key=value key="two words"`.
 * Secrets are redacted here, so no writer can put one on disk by mistake.
 */
export function formatLogLine({ ts, level, message, fields = {} }: LogRecord): string {
  const parts = [new Date(ts).toISOString(), level.toUpperCase(), messageText(clip(sanitizeText(message)))];
  for (const [key, value] of Object.entries(fields)) {
    const name = key.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || '_';
    parts.push(`${name}=${isSecretKey(name) ? REDACTED : fieldValue(value)}`);
  }
  return parts.join(' ');
}
