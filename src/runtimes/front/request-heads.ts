/**
 * Follows the requests a client sends on one connection, byte for byte as they pass, to tell the
 * front door (./front-door.ts, ../deno/front-door.ts) when a request head is under way: its clock runs from the first byte
 * of a head (from the accept, for the first) to the blank line that ends it. Bodies are skipped by
 * their Content-Length. A request framed any other way (Transfer-Encoding, an Upgrade, CONNECT, a
 * head past MAX_HEAD_BYTES) ends the following: the rest of the connection passes untimed, and the
 * server behind judges it. The bytes are never changed, so a misreading here can only leave a head
 * untimed, never alter a request. One head is judged here: an absolute-form target
 * (`GET http://evil.example/… HTTP/1.1`) whose authority the service does not answer for, which
 * workerd would take under the Host header's name (src/pipeline/host-guard.ts).
 */
import { concatBytes } from '../../shared/bytes';

/** A request head not whole this long after its first byte (or the accept) closes the connection. */
export const HEADER_TIMEOUT_MS = 15_000;

const MAX_HEAD_BYTES = 64 * 1024;
const CR = 13;
const LF = 10;

export type HeadState = 'head' | 'between' | 'untracked' | 'misdirected';

/** A target that names its scheme and authority: the absolute form (RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * What a front door does with an absolute-form target: `allowed` judges its URL; `refuse` is called
 * with the authority of one it does not serve, while the chunk that ended its head has not yet been
 * passed on.
 */
export interface AuthorityCheck {
  allowed(url: URL): boolean;
  refuse(host: string): void;
}

/**
 * A request head as read from its text: the request line's parts and the fields in order, names
 * lower-cased. `wellFormed` is false for a request line that is not `method target HTTP/…` or a
 * field line with no name; such a head is still followed by its fields, and the server behind
 * judges it.
 */
export interface Head {
  method: string;
  target: string;
  fields: (readonly [name: string, value: string])[];
  wellFormed: boolean;
}

/**
 * Reads a head's text (without the blank line that ends it). The one reader of heads: the front
 * doors follow connections with it, and the launcher's picks a run's DevTools WebSocket by it.
 */
export function parseHead(text: string): Head {
  const [line = '', ...lines] = text.split('\r\n');
  const [method = '', target = '', version] = line.split(' ');
  let wellFormed = method !== '' && target !== '' && version?.startsWith('HTTP/') === true;
  const fields = lines.map((field) => {
    const colon = field.indexOf(':');
    if (colon <= 0) wellFormed = false;
    return [field.slice(0, colon).trim().toLowerCase(), field.slice(colon + 1).trim()] as const;
  });
  return { method, target, fields, wellFormed };
}

export class RequestHeads {
  /** A connection opens waiting for its first head: one that sends nothing is timed too. */
  state: HeadState = 'head';
  /** Heads read whole so far: a new one begun in the same chunk restarts the clock. */
  heard = 0;
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private bodyLeft = 0;
  /** The authority of the target that made the state `misdirected`. */
  misdirected = '';

  constructor(private readonly allowed: AuthorityCheck['allowed'] | null = null) {}

  /** Takes the next bytes the client sent; `state` then says what the connection is waiting for. */
  feed(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && this.state !== 'untracked' && this.state !== 'misdirected') {
      if (this.bodyLeft > 0) {
        const taken = Math.min(this.bodyLeft, chunk.length - at);
        this.bodyLeft -= taken;
        at += taken;
        continue;
      }
      this.state = 'head';
      const end = this.headEnd(chunk, at);
      const piece = chunk.subarray(at, end < 0 ? chunk.length : end);
      this.head.push(piece);
      this.headBytes += piece.length;
      if (end < 0) {
        if (this.headBytes > MAX_HEAD_BYTES) this.state = 'untracked';
        return;
      }
      at = end;
      this.headDone();
    }
  }

  /** The offset just past the blank line ending the head in `chunk` from `from`, or -1; a CRLFCRLF split across chunks counts. */
  private headEnd(chunk: Uint8Array, from: number): number {
    const tail = this.lastBytes(3);
    for (let i = from; i < chunk.length; i++) {
      if (chunk[i] !== LF) continue;
      const back = (k: number) => (i - k >= from ? chunk[i - k] : tail[tail.length - (k - (i - from))]);
      if (back(1) === CR && back(2) === LF && back(3) === CR) return i + 1;
    }
    return -1;
  }

  private lastBytes(n: number): number[] {
    const bytes: number[] = [];
    for (let p = this.head.length - 1; p >= 0 && bytes.length < n; p--) {
      const piece = this.head[p]!;
      for (let i = piece.length - 1; i >= 0 && bytes.length < n; i--) bytes.unshift(piece[i]!);
    }
    return bytes;
  }

  private headDone(): void {
    const text = new TextDecoder('latin1').decode(concatBytes(this.head, this.headBytes));
    this.head = [];
    this.headBytes = 0;
    this.heard++;
    // Blank lines before a request line are allowed (RFC 9112 2.2): they are no head.
    if (text.trim() === '') return;
    const head = parseHead(text.trimStart());
    if (this.allowed && ABSOLUTE_FORM.test(head.target)) {
      const url = URL.canParse(head.target) ? new URL(head.target) : null;
      if (url === null || !this.allowed(url)) {
        this.misdirected = url?.host ?? head.target.slice(0, 255);
        this.state = 'misdirected';
        return;
      }
    }
    const lengths = head.fields.filter(([name]) => name === 'content-length').map(([, value]) => value);
    const unfollowable =
      head.method === 'CONNECT' ||
      head.fields.some(([name]) => name === 'transfer-encoding' || name === 'upgrade') ||
      lengths.some((value) => !/^\d{1,15}$/.test(value) || value !== lengths[0]);
    if (unfollowable) {
      this.state = 'untracked';
      return;
    }
    this.bodyLeft = lengths.length ? Number(lengths[0]) : 0;
    this.state = 'between';
  }
}

/**
 * The header clock of one connection: `seen` takes each chunk the client sends; `expire` is called
 * when a head has been under way for HEADER_TIMEOUT_MS (the connection is then closed by the caller),
 * and `authority.refuse` for an absolute-form target it does not allow (the clock then stops).
 */
export class HeadClock {
  private readonly heads: RequestHeads;
  private timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly expire: () => void,
    private readonly authority: AuthorityCheck | null = null,
  ) {
    this.heads = new RequestHeads(authority?.allowed ?? null);
    this.timer = setTimeout(expire, HEADER_TIMEOUT_MS);
  }

  seen(chunk: Uint8Array): void {
    const [state, heard] = [this.heads.state, this.heads.heard];
    this.heads.feed(chunk);
    if (this.heads.state === state && this.heads.heard === heard) return;
    clearTimeout(this.timer);
    if (this.heads.state === 'misdirected') this.authority!.refuse(this.heads.misdirected);
    else if (this.heads.state === 'head') this.timer = setTimeout(this.expire, HEADER_TIMEOUT_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
