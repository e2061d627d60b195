import { ApiError } from '../errors/api-error';

function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Reads a JSON body of at most `limit` bytes. The limit is enforced on the bytes that arrive, not on
 * what Content-Length claims, so a chunked body or a lying header cannot get more past it.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError('request.unsupported_media_type', { content_type: (request.headers.get('content-type') ?? '').slice(0, 100) });
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw new ApiError('request.too_large', { limit_bytes: limit });
  const bytes = await readAtMost(request, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return JSON.parse(text);
  } catch {
    throw new ApiError('request.malformed_json');
  }
}

async function readAtMost(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new ApiError('request.too_large', { limit_bytes: limit });
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
