import { Transform, type Readable } from 'node:stream';

/**
 * The argument names of each `tools/call` as the client sent them. The SDK parses every message with
 * zod, whose records assign keys one by one: a `__proto__` key sets the prototype instead of a field,
 * so the handler never sees it and could not refuse it. The names are therefore read from the raw
 * JSON lines on their way to the transport, and taken by request id when the call is handled.
 */
export class ArgumentNames {
  private readonly byId = new Map<string | number, string[]>();
  private pending = '';

  /** Standard input as the transport should read it: the same bytes, the names noted on the way. */
  watch(input: Readable): Readable {
    const transform = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        const lines = (this.pending + chunk.toString('utf8')).split('\n');
        this.pending = lines.pop() ?? '';
        lines.forEach((line) => this.note(line));
        done(null, chunk);
      },
    });
    return input.pipe(transform);
  }

  /** The names sent with request `id` (forgotten once taken), or none when the line was not seen. */
  take(id: string | number): string[] {
    const names = this.byId.get(id) ?? [];
    this.byId.delete(id);
    return names;
  }

  private note(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return; // the transport answers a line that is not JSON
    }
    const { id, method, params } = (message ?? {}) as {
      id?: string | number;
      method?: string;
      params?: { arguments?: unknown };
    };
    const args = params?.arguments;
    if (method === 'tools/call' && id !== undefined && args !== null && typeof args === 'object')
      this.byId.set(id, Object.keys(args));
  }
}
