const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string is valid Unicode, so that it survives a round trip through UTF-8 unchanged. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
