const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string is valid Unicode, so that it survives a round trip through UTF-8 unchanged. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

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
