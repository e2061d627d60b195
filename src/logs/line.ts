import { z } from 'zod';
import { isSecretKey, REDACTED, sanitizeText } from './sanitize';

export const LogLevel = z.enum(['info', 'warn', 'error']);
export type LogLevel = z.output<typeof LogLevel>;

/** One line of a log, before it is formatted; the host takes it so (POST /logs/:stream). */
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
const BARE_VALUE = /^[^\s"=\\]+$/;

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** A message stays on one line, whatever it holds. */
function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/** A list of names or numbers reads best comma-separated; anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  const plainList = Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number' || (typeof item === 'string' && /^[^,\s]+$/.test(item)));
  return plainList ? value.join(',') : JSON.stringify(value);
}

function fieldValue(value: unknown): string {
  if (value === null || value === undefined) return '-';
  const text = clip(sanitizeText(asText(value)));
  // Quoted (JSON string syntax) only when needed, so that most values read plainly.
  return BARE_VALUE.test(text) && text !== '-' ? text : JSON.stringify(text);
}

/**
 * The one line format of every LPA log: `<ISO time> <LEVEL> <message> key=value key="two words"`.
 * Secrets are redacted here, so no writer can put one on disk by mistake.
 */
export function formatLogLine({ ts, level, message, fields = {} }: LogRecord): string {
  const parts = [new Date(ts).toISOString(), level.toUpperCase(), oneLine(clip(sanitizeText(message)))];
  for (const [key, value] of Object.entries(fields)) {
    const name = key.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || '_';
    parts.push(`${name}=${isSecretKey(name) ? REDACTED : fieldValue(value)}`);
  }
  return parts.join(' ');
}
