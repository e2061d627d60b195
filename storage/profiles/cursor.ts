import { hmacHex, sha256Hex, timingSafeEqual } from '../../src/shared/crypto';
import { ApiError } from '../../src/shared/errors/api-error';
import { fromBase64Url, toBase64Url } from '../../src/shared/base64';

/** Where a keyset traversal stopped: the last row's sort value and its `no` (unique, the tie-breaker). */
export interface Keyset {
  value: string | number;
  no: number;
}

interface Payload {
  /** Digest of the sort, order and filters the cursor was issued for. */
  b: string;
  v: string | number;
  n: number;
}

const encode = (text: string) => toBase64Url(new TextEncoder().encode(text));
const decode = (text: string) => new TextDecoder().decode(fromBase64Url(text));

/**
 * Opaque profile-list cursors: a keyset and a digest of the query it belongs to, signed with an HMAC
 * under a key of this store. A forged or altered cursor fails the signature (`request.cursor_invalid`);
 * a genuine one used with another sort, order or filter fails the digest (`request.cursor_mismatch`).
 */
export class CursorSigner {
  constructor(private readonly key: Uint8Array) {}

  sign(binding: unknown, keyset: Keyset): string {
    const body = encode(JSON.stringify({ b: digest(binding), v: keyset.value, n: keyset.no } satisfies Payload));
    return `${body}.${hmacHex(this.key, body)}`;
  }

  /** The keyset of a cursor issued for exactly this binding; `valueType` is the sort key's type. */
  open(cursor: string, binding: unknown, valueType: 'string' | 'number'): Keyset {
    const [body, mac, extra] = cursor.split('.');
    if (extra !== undefined || !body || !mac || !timingSafeEqual(mac, hmacHex(this.key, body))) {
      throw new ApiError('request.cursor_invalid');
    }
    const payload = JSON.parse(decode(body)) as Payload;
    if (payload.b !== digest(binding)) throw new ApiError('request.cursor_mismatch');
    if (typeof payload.v !== valueType || !Number.isSafeInteger(payload.n))
      throw new ApiError('request.cursor_invalid');
    return { value: payload.v, no: payload.n };
  }
}

/** Key order is fixed by the caller's object literal, so the same query always gives the same digest. */
const digest = (binding: unknown) => sha256Hex(JSON.stringify(binding)).slice(0, 32);
