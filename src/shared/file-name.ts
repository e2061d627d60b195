import { isWellFormed, utf8Length } from './unicode';

export const FILE_NAME_MAX_CHARS = 200;
/** NAME_MAX of common file systems: a longer name would fail at the disk, not at validation. */
const FILE_NAME_MAX_BYTES = 255;

/**
 * The characters of fileNameProblem's rule as one JSON Schema pattern, so that the document says what
 * the check refuses: no separator or control character, no leading dot, no two dots in a row (written
 * without lookaheads, which not every client's regex engine has). Length and valid Unicode are the
 * schema's other bounds; only the UTF-8 byte length is left to the description.
 */
const PLAIN = String.raw`[^./\\\u0000-\u001f\u007f-\u009f]`;
export const FILE_NAME_PATTERN = new RegExp(String.raw`^${PLAIN}(?:\.?${PLAIN})*\.?$`);

/**
 * Why a name is not a plain file name of the automation folder, or null when it is one. Both the
 * route's schema and the host (which never trusts the worker with a path) apply this same rule.
 */
export function fileNameProblem(name: string): string | null {
  if (name.length < 1 || name.length > FILE_NAME_MAX_CHARS) return `must be 1..${FILE_NAME_MAX_CHARS} characters`;
  if (!isWellFormed(name)) return 'must be valid Unicode';
  if (/[/\\]/.test(name)) return 'must not contain a path separator';
  if (name.includes('..')) return 'must not contain ".."';
  if (name.startsWith('.')) return 'must not start with a dot';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'must not contain control characters';
  if (utf8Length(name) > FILE_NAME_MAX_BYTES) return `must be at most ${FILE_NAME_MAX_BYTES} bytes in UTF-8`;
  return null;
}
