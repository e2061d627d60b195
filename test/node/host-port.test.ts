import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeHost } from '../../src/host/node/node-host';
import { hostServer } from '../../src/host/node/server';
import { HOST_OPERATION_LIST } from '../../src/host/operations';
import { hostClient, HostRefusal, type HostPort } from '../../src/host/port';

/**
 * The two ways the service reaches the machine: directly (Bun, Deno) and through the wire that both
 * the client and the server derive from the declarations (workerd). Each is over a data root of its
 * own; what they answer must agree.
 */
const direct = nodeHost(mkdtempSync(join(tmpdir(), 'lpa-host-direct-')));
const server = hostServer(nodeHost(mkdtempSync(join(tmpdir(), 'lpa-host-wire-'))));
const wire = hostClient({ fetch: (input, init) => server(new Request(input, init)) });
const both: [string, HostPort][] = [
  ['directly', direct],
  ['over the wire', wire],
];

describe('the host port', () => {
  it('serves every declared operation', async () => {
    for (const { path } of HOST_OPERATION_LIST) {
      // Arguments that decode for no operation: answered as a refusal of the operation, not as an unknown path.
      const res = await server(new Request(`http://host${path}`, { method: 'POST', body: '[{}, {}, {}, {}]' }));
      expect(res.status, path).toBe(400);
    }
    expect((await server(new Request('http://host/files/remove', { method: 'POST', body: '[]' }))).status).toBe(404);
  });

  it.each(both)('keeps bytes as they are, %s', async (_, host) => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(await host.files.write('all-bytes.bin', bytes)).toBe('created');
    expect(await host.files.write('all-bytes.bin', new Uint8Array([1]))).toBe('exists');
    expect(await host.files.read('all-bytes.bin')).toEqual(bytes);
    expect(await host.files.read('absent.bin')).toBeNull();
    const key = await host.keys.read('vault', true);
    expect(key).toHaveLength(32);
    expect(await host.keys.read('vault', false)).toEqual(key);
    expect(await host.keys.read('audit', false)).toBeNull();
  });

  it.each(both)('writes and reads logs and seals, %s', async (_, host) => {
    const ts = Date.UTC(2026, 0, 2, 3, 4, 5);
    await host.logs.append('core', [{ ts, level: 'info', message: 'hello' }]);
    const tail = await host.logs.tail('core', 'core-2026-01-02.log', 6);
    expect(tail).toMatchObject({
      entry: { stream: 'core', file: 'core-2026-01-02.log' },
      offset: tail!.entry.size - 6,
    });
    expect(new TextDecoder().decode(tail!.bytes)).toBe('hello\n');
    expect(await host.logs.tail('core', 'core-1999-01-01.log', 8)).toBeNull();
    const seal = { store_id: 's', day: '2026-01-01', seq: 1, hash: 'a'.repeat(64) };
    await host.seals.append(seal);
    expect(await host.seals.read()).toEqual([seal]);
  });

  it.each(both)('refuses names that are not its files, %s', async (_, host) => {
    await expect(host.files.read('../escape.txt')).rejects.toThrow(HostRefusal);
    await expect(host.files.write('a/b', new Uint8Array())).rejects.toThrow(HostRefusal);
    await expect(host.logs.tail('core', '../../vault.key', 8)).rejects.toThrow(HostRefusal);
  });
});
