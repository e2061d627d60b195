const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string is valid Unicode, so that it survives a round trip through UTF-8 unchanged. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * Characters never shown as they are, in a log line or on a terminal: control characters (C0, DEL
 * and C1, U+0085 among them), the Unicode line and paragraph separators (U+2028, U+2029) and the
 * bidirectional controls (which make a line read otherwise than it is). A regular expression
 * character class's contents, for the `u` flag.
 */
export const UNSAFE_CHARACTERS = String.raw`\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}`;
const UNSAFE = new RegExp(`[${UNSAFE_CHARACTERS}]`, 'gu');

/** The text with every unsafe character but those `kept` (the line feeds of a multi-line text) written as `\uXXXX`. */
export const escapeUnsafe = (text: string, kept = ''): string =>
  text.replace(UNSAFE, (c) => (kept.includes(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

/**
 * One encoder and one strict decoder for the isolate: neither keeps state between whole-text calls,
 * and under workerd each one made is a native object that lives until the next full collection.
 */
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text as UTF-8 bytes. */
export const utf8Bytes = (text: string): Uint8Array => encoder.encode(text);

/** UTF-8 bytes as text; throws on bytes that are not UTF-8. */
export const utf8Text = (bytes: Uint8Array): string => strictDecoder.decode(bytes);

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}
