import type { Readable, Writable } from 'node:stream';

/**
 * Chromium's `--remote-debugging-pipe`: DevTools messages as JSON texts, each ended by a NUL byte, the
 * browser reading from our fd 3 and writing to our fd 4. No TCP port is opened, so nothing but this
 * process can drive the browser.
 */
export class DevtoolsPipe {
  private pending: Buffer[] = [];
  private closed = false;

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
    onMessage: (text: string) => void,
    onClose: () => void,
  ) {
    fromBrowser.on('data', (chunk: Buffer) => {
      let start = 0;
      let end = chunk.indexOf(0);
      while (end !== -1) {
        this.pending.push(chunk.subarray(start, end));
        const text = Buffer.concat(this.pending).toString('utf8');
        this.pending = [];
        onMessage(text);
        start = end + 1;
        end = chunk.indexOf(0, start);
      }
      if (start < chunk.length) this.pending.push(chunk.subarray(start));
    });
    const close = () => {
      if (this.closed) return;
      this.closed = true;
      onClose();
    };
    fromBrowser.on('close', close);
    fromBrowser.on('error', close);
    toBrowser.on('error', close);
  }

  send(text: string): void {
    if (this.closed) return;
    this.toBrowser.write(`${text}\0`);
  }
}
