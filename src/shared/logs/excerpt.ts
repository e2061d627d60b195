import { z } from 'zod';
import { sanitizeText } from './sanitize';
import { LogFileEntry } from './streams';

/** The spec's bounds of one excerpt. */
export const EXCERPT_MAX_BYTES = 256 * 1024;
export const EXCERPT_MAX_LINES = 1000;

const Excerpt = z.object({
  text: z.string().meta({ description: 'The end of the file, sanitized; it starts on a line boundary.' }),
  lines: z.int().min(0).max(EXCERPT_MAX_LINES),
  truncated: z.boolean().meta({ description: 'True when the file holds more than the excerpt.' }),
});
type Excerpt = z.output<typeof Excerpt>;

/** A log file with the end of it, as `GET /api/v1/system/logs/:stream/:file` answers. */
export const LogExcerpt = LogFileEntry.extend(Excerpt.shape).meta({ id: 'LogExcerpt' });
export type LogExcerpt = z.output<typeof LogExcerpt>;

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/**
 * The sanitized end of a log file from its last bytes (at most EXCERPT_MAX_BYTES of them; `cut`
 * says whether the file has more before them). The excerpt starts on a line boundary: a partial
 * first line is dropped, so half a secret can never slip past the redaction.
 */
export function excerptOf(tail: Uint8Array, cut: boolean): Excerpt {
  let text = new TextDecoder().decode(tail);
  if (cut) {
    const firstBreak = text.indexOf('\n');
    text = firstBreak === -1 ? '' : text.slice(firstBreak + 1);
  }
  const endsWithNewline = text.endsWith('\n');
  let lines = text === '' ? [] : (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  let truncated = cut || lines.length > EXCERPT_MAX_LINES;
  lines = lines.slice(-EXCERPT_MAX_LINES).map(sanitizeText);
  // A redaction marker can be longer than what it hides; drop the oldest lines until the bound holds again.
  const sizes = lines.map((line) => utf8Length(line) + 1);
  let size = sizes.reduce((sum, n) => sum + n, 0) - (endsWithNewline ? 0 : 1);
  let drop = 0;
  while (size > EXCERPT_MAX_BYTES) size -= sizes[drop++]!;
  if (drop > 0) {
    lines = lines.slice(drop);
    truncated = true;
  }
  const body = lines.join('\n');
  return { text: body && endsWithNewline ? `${body}\n` : body, lines: lines.length, truncated };
}
