import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DevtoolsPipe } from '../../src/host/node/browsers/devtools-pipe';
import { DevtoolsRelay } from '../../src/host/node/browsers/devtools-relay';

/** A relay over a fake browser: what LPA writes to the pipe is read back here, and the test answers as Chromium would. */
function relayOverFakeBrowser() {
  const toBrowser = new PassThrough();
  const fromBrowser = new PassThrough();
  const relay = new DevtoolsRelay();
  relay.connect(
    new DevtoolsPipe(
      toBrowser,
      fromBrowser,
      (text) => relay.receive(text),
      () => {},
    ),
  );
  const written: Record<string, unknown>[] = [];
  toBrowser.on('data', (chunk: Buffer) => {
    for (const text of chunk.toString('utf8').split('\0').filter(Boolean)) written.push(JSON.parse(text));
  });
  const fromChromium = (text: string) => fromBrowser.write(`${text}\0`);
  const nextWritten = async () => {
    while (written.length === 0) await new Promise((resolve) => setImmediate(resolve));
    return written.shift()!;
  };
  return { relay, fromChromium, nextWritten };
}

function clientSocket() {
  const got: string[] = [];
  return { got, socket: { send: (text: string) => got.push(text), close: () => got.push('closed') } };
}

describe("the DevTools relay hands each client its session's messages", () => {
  it('as Chromium writes them: the session at the end dropped on the root, kept on an attached one, and a message of another shape read whole', async () => {
    const { relay, fromChromium, nextWritten } = relayOverFakeBrowser();
    const client = clientSocket();
    const events = relay.attach(client.socket, { browser: true });
    const attach = await nextWritten();
    expect(attach.method).toBe('Target.attachToBrowserTarget');
    fromChromium(JSON.stringify({ id: attach.id, result: { sessionId: 'ROOT1' } }));

    events.message(
      JSON.stringify({ id: 7, method: 'Target.attachToTarget', params: { targetId: 'T', flatten: true } }),
    );
    expect(await nextWritten()).toEqual({
      id: 7,
      method: 'Target.attachToTarget',
      params: { targetId: 'T', flatten: true },
      sessionId: 'ROOT1',
    });
    fromChromium(
      '{"method":"Target.attachedToTarget","params":{"sessionId":"PAGE1","targetInfo":{"targetId":"T"},"waitingForDebugger":false},"sessionId":"ROOT1"}',
    );
    fromChromium('{"id":7,"result":{"sessionId":"PAGE1"},"sessionId":"ROOT1"}');
    // A string with what looks like a session at its end, escaped as JSON escapes it.
    fromChromium(
      '{"id":8,"result":{"result":{"type":"string","value":",\\"sessionId\\":\\"ROOT1\\"}"}},"sessionId":"PAGE1"}',
    );
    // The session elsewhere than at the end: read whole, and handed on just the same.
    fromChromium('{"sessionId":"ROOT1","id":9,"result":{}}');
    // A session no client has: LPA's own, not handed to the client.
    fromChromium('{"method":"Page.loadEventFired","params":{"timestamp":1},"sessionId":"OTHER"}');
    await new Promise((resolve) => setImmediate(resolve));

    expect(client.got.map((text) => JSON.parse(text))).toEqual([
      {
        method: 'Target.attachedToTarget',
        params: { sessionId: 'PAGE1', targetInfo: { targetId: 'T' }, waitingForDebugger: false },
      },
      { id: 7, result: { sessionId: 'PAGE1' } },
      { id: 8, result: { result: { type: 'string', value: ',"sessionId":"ROOT1"}' } }, sessionId: 'PAGE1' },
      { id: 9, result: {} },
    ]);

    // The attached session is the client's: it may send on it, and on no other.
    events.message(
      JSON.stringify({ id: 10, method: 'Runtime.evaluate', params: { expression: '1+1' }, sessionId: 'PAGE1' }),
    );
    expect((await nextWritten()).sessionId).toBe('PAGE1');
    events.message(JSON.stringify({ id: 11, method: 'Runtime.evaluate', sessionId: 'OTHER' }));
    expect(JSON.parse(client.got.at(-1)!)).toMatchObject({ id: 11, error: { code: -32001 } });
  });
});
