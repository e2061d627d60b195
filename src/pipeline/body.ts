import { concatBytes } from '../shared/bytes';
import { ApiError } from '../shared/errors/api-error';
import { utf8Text } from '../shared/unicode';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Real bodies (flow steps included) stay
 * far below it; much deeper input only serves to exhaust the stack of whatever walks it later
 * (validation, the structured clone of a store call), so it is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 64;
/**
 * The most of a body LPA reads and throws away after answering without it (a 413, a 401 to a
 * POST). A keep-alive client sends its next request on the same connection only once the whole
 * body is off the wire; workerd resets a connection with unread body and drops a `Connection:
 * close` the worker sets, so the remainder is drained, as nginx's lingering close does. Past this
 * many bytes, or this long, the connection is given up (and reset) instead.
 */
const DRAIN_LIMIT = 8 * 1024 * 1024;
const DRAIN_MS = 5_000;
/**
 * How long a body may take to arrive whole once its headers are in. workerd and Deno offer no body
 * timeout of their own (docs/reliability.md), so a client that declares a length and never sends
 * it would hold its request for minutes; past this, it is answered 408. A body of the largest size
 * LPA takes arrives over loopback in well under a second.
 */
export const BODY_TIMEOUT_MS = 15_000;

function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/** A request that carries no body at all: no bytes declared, none chunked. */
export function hasNoBody(request: Request): boolean {
  return (
    request.body === null ||
    (request.headers.get('content-length') === '0' && !request.headers.has('transfer-encoding'))
  );
}

/**
 * Reads a JSON body of at most `limit` bytes. The limit is enforced on the bytes that arrive, not on
 * what Content-Length claims, so a chunked body or a lying header cannot get more past it.
 */

export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError('request.unsupported_media_type', {
      content_type: (request.headers.get('content-type') ?? '').slice(0, 100),
    });
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw new ApiError('request.too_large', { limit_bytes: limit });
  const bytes = await withinBodyTimeout(readAtMost(request, limit));
  let text: string;
  try {
    text = utf8Text(bytes);
  } catch {
    throw new ApiError('request.malformed_json');
  }
  assertShallow(text);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('request.malformed_json');
  }
}

/** Counts brackets outside strings: linear, and no stack however deep the text nests. */
function assertShallow(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new ApiError('request.invalid', {
          issues: [
            {
              in: 'body',
              path: [],
              code: 'too_deep',
              message: `Arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`,
            },
          ],
        });
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** The read, or `408 request.body_timeout` when it has not ended within BODY_TIMEOUT_MS. */
async function withinBodyTimeout<T>(reading: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ApiError('request.body_timeout', { timeout_ms: BODY_TIMEOUT_MS })),
      BODY_TIMEOUT_MS,
    );
  });
  // The read given up on may still fail later: that failure has no one to answer.
  reading.catch(() => {});
  try {
    return await Promise.race([reading, timeout]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

/** A body that breaks off (bad chunked framing, fewer bytes than Content-Length, a client gone) is the client's fault. */
async function read(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch {
    throw new ApiError('request.body_incomplete');
  }
}

async function readAtMost(request: Request, limit: number): Promise<Uint8Array> {
  if (request.headers.has('content-length') && !request.headers.has('transfer-encoding')) {
    // The declared length (already within the limit) frames the body: one native read instead of a
    // reader's promise per chunk, which cost most of a small write's body handling under workerd.
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await request.arrayBuffer());
    } catch {
      throw new ApiError('request.body_incomplete');
    }
    if (bytes.byteLength > limit) throw new ApiError('request.too_large', { limit_bytes: limit });
    return bytes;
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await read(reader);
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await drain(reader);
      throw new ApiError('request.too_large', { limit_bytes: limit });
    }
    chunks.push(value);
  }
  return concatBytes(chunks, total);
}

/** Reads and discards what is left of a body, within DRAIN_LIMIT and DRAIN_MS; never throws. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)));
  const discard = async () => {
    for (let total = 0; total <= DRAIN_LIMIT; ) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
    }
  };
  try {
    await Promise.race([discard(), deadline]);
  } catch {
    // A body that breaks off while it is thrown away needs no answer of its own.
  } finally {
    if (timer !== null) clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

/** Drains the body of a request that was answered without reading it (see DRAIN_LIMIT). */
export async function discardUnreadBody(request: Request): Promise<void> {
  if (request.bodyUsed || !request.body) return;
  if (Number(request.headers.get('content-length') ?? '0') > DRAIN_LIMIT) return;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch {
    return;
  }
  await drain(reader);
}
