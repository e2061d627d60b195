import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AutomationFileEntry } from '../src/host/files-schema';
import { toBase64 } from '../src/shared/base64';
import { call, tokenWith } from './support/api';
import { expectError, LARGE_TIMEOUT_MS } from './support/automation';
import { auditOf } from './support/automation-store';
import { hostClient } from '../src/host/port';
import { rawHostCall } from './support/host-wire';
import { plant, plantFifo, plantHardLink, plantSymlink } from './support/log-files';

const FILES = '/api/v1/automation/files';
const upload = (body: unknown) => call(FILES, { method: 'POST', body });
const content = (name: string) => call(`${FILES}/content?name=${encodeURIComponent(name)}`);
const host = hostClient(env.HOST);

describe('writing and reading files', () => {
  it('writes a new file, lists it under the data root and reads it back', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const res = await upload({ name: 'all-bytes.bin', base64: toBase64(bytes) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    const list = await call(FILES);
    expect(list.status).toBe(200);
    expect(list.json.directory).toBe(`${env.LPA_DATA_ROOT}/automation-files`);
    expect(list.json.items).toContainEqual({ name: 'all-bytes.bin', size_bytes: 256 });
    expect(list.json.items.every((item: AutomationFileEntry) => !item.name.startsWith('.'))).toBe(true);
    const read = await content('all-bytes.bin');
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ base64: toBase64(bytes) });
    expect(await auditOf('files.write', 'all-bytes.bin')).toEqual([
      expect.objectContaining({ result: 'ok', entity_type: 'file', details: { size_bytes: 256 } }),
    ]);
  });

  it('never replaces a file', async () => {
    expect((await upload({ name: 'kept.txt', base64: btoa('first') })).status).toBe(200);
    const res = await upload({ name: 'kept.txt', base64: btoa('second') });
    expectError(res, 409, 'files.exists');
    expect((await content('kept.txt')).json).toEqual({ base64: btoa('first') });
  });

  it('writes an empty file and names of 200 characters', async () => {
    expect((await upload({ name: 'empty.txt', base64: '' })).status).toBe(200);
    expect((await content('empty.txt')).json).toEqual({ base64: '' });
    const long = `${'n'.repeat(196)}.txt`;
    expect((await upload({ name: long, base64: 'YQ==' })).status).toBe(200);
    expect((await content(long)).json).toEqual({ base64: 'YQ==' });
  });

  it('answers 404 for a file that does not exist', async () => {
    expectError(await content('absent.txt'), 404, 'resource.not_found');
  });

  it('needs rpa:write to write and runtime:control to read', async () => {
    const reader = await tokenWith(['runtime:control']);
    const res = await call(FILES, { method: 'POST', token: reader.token, body: { name: 'scoped.txt', base64: '' } });
    expectError(res, 403, 'auth.scope_missing');
    expect(res.json.error.details.missing).toEqual(['rpa:write']);
    expect((await call(FILES, { token: reader.token })).status).toBe(200);
  });
});

const badNames: [string, string][] = [
  ['an empty name', ''],
  ['201 characters', 'n'.repeat(201)],
  ['a slash', 'a/b'],
  ['a backslash', 'a\\b'],
  ['a parent reference', '../escape.txt'],
  ['dot dot', '..'],
  ['dot dot inside', 'a..b'],
  ['a leading dot', '.hidden'],
  ['a NUL', 'a\u0000b'],
  ['a new line', 'a\nb'],
  ['DEL', 'a\u007fb'],
  ['a C1 control', 'a\u0085b'],
  ['an absolute path', '/etc/passwd'],
  ['more than 255 bytes of UTF-8', 'ü'.repeat(128)],
];

describe('file names', () => {
  it.each(badNames)('refuses %s on write', async (_, name) => {
    expectError(await upload({ name, base64: 'YQ==' }), 400, 'request.invalid');
  });

  it.each(badNames)('refuses %s on read', async (_, name) => {
    expectError(await content(name), 400, 'request.invalid');
  });

  it('refuses a lone surrogate', async () => {
    expectError(await upload({ name: 'a\ud800', base64: 'YQ==' }), 400, 'request.invalid');
  });

  it('refuses a read without a name', async () => {
    expectError(await call(`${FILES}/content`), 400, 'request.invalid');
  });

  it.each(['../escape.txt', 'a/b', '.hidden', 'a\u0000b', '..\\x'])(
    'is refused by the host itself: %j',
    async (name) => {
      expect((await rawHostCall('files', 'write', [name, 'eA=='])).status).toBe(400);
      expect((await rawHostCall('files', 'read', [name])).status).toBe(400);
      await expect(host.files.read(name)).rejects.toThrow(/HTTP 400/);
    },
  );
});

describe('file contents', () => {
  it.each([
    ['no padding', 'YQ'],
    ['white space', 'Y Q=='],
    ['a line break', 'YWJj\nZGVm'],
    ['base64url letters', '-_-_'],
    ['stray bits before padding', 'YR=='],
    ['padding only', '===='],
    ['padding in the middle', 'YQ==YQ=='],
    ['a number', 1234],
  ])('refuses %s', async (_, base64) => {
    expectError(await upload({ name: `bad-${crypto.randomUUID()}.bin`, base64 }), 400, 'request.invalid');
  });

  it('refuses other fields', async () => {
    expectError(await upload({ name: 'extra.bin', base64: '', mode: '0777' }), 400, 'request.invalid');
  });

  it(
    'accepts 4 MiB (5,592,408 characters), even with every / escaped',
    async () => {
      const bytes = new Uint8Array(4 * 1024 * 1024).fill(0xff);
      const base64 = toBase64(bytes);
      expect(base64.length).toBe(5_592_408);
      const body = JSON.stringify({ name: 'four-mib.bin', base64 }).replace(/\//g, '\\/');
      const res = await call(FILES, { method: 'POST', body });
      expect(res.status).toBe(200);
      expect((await call(FILES)).json.items).toContainEqual({ name: 'four-mib.bin', size_bytes: 4 * 1024 * 1024 });
      expect((await content('four-mib.bin')).json.base64 === base64).toBe(true);
    },
    LARGE_TIMEOUT_MS,
  );

  it(
    'refuses 5,592,412 characters',
    async () => {
      const res = await upload({ name: 'too-big.bin', base64: 'A'.repeat(5_592_412) });
      expectError(res, 400, 'request.invalid');
      expect(res.json.error.details.issues[0]).toMatchObject({ path: ['base64'], code: 'too_big' });
      expectError(await content('too-big.bin'), 404, 'resource.not_found');
    },
    LARGE_TIMEOUT_MS,
  );
});

describe('what else is in the folder', () => {
  // Planted by another program: a FIFO (an open without O_NONBLOCK would wait for a writer, holding
  // the host), a second name of a file of the user's outside the folder, a link, a folder.
  const secret = `outside-secret-${crypto.randomUUID()}`;
  const planted = ['fifo.txt', 'hard-link.txt', 'symlink.txt', 'folder.txt'];

  it('is neither listed nor read, and the folder still works afterwards', async () => {
    await plant('outside-files/vault-like.key', secret);
    await plantFifo('automation-files/fifo.txt');
    await plantHardLink('automation-files/hard-link.txt', 'outside-files/vault-like.key');
    await plantSymlink('automation-files/symlink.txt', '../outside-files/vault-like.key');
    await plant('automation-files/folder.txt/inner', 'x');
    for (const name of planted) {
      const res = await content(name);
      expectError(res, 404, 'resource.not_found');
      expect(res.text).not.toContain(secret);
      expect(await host.files.read(name)).toBeNull();
    }
    const names = (await call(FILES)).json.items.map((item: AutomationFileEntry) => item.name);
    for (const name of planted) expect(names).not.toContain(name);
    expect((await upload({ name: 'after-planted.txt', base64: btoa('still here') })).status).toBe(200);
    expect((await content('after-planted.txt')).json).toEqual({ base64: btoa('still here') });
  });
});
