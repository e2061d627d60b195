import { describe, expect, it } from 'vitest';
import { call, tokenWith } from './support/api';
import { rawHostCall } from './support/host-wire';
import { plant, plantFifo, plantHardLink, plantSymlink, secondsAgo } from './support/log-files';

/** This file's own names, so that files other test files write never get in the way. */
const tag = `read-${crypto.randomUUID().slice(0, 8)}`;
const excerpt = (stream: string, file: string) => call(`/api/v1/system/logs/${stream}/${file}`);
const numbered = (count: number, width: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `${String(from + i).padStart(6, '0')} ${'x'.repeat(width - 8)}\n`);

describe('GET /api/v1/system/logs', () => {
  it('lists every log file of every stream with its size and modification time', async () => {
    const mtime = secondsAgo(60_000);
    await plant(`logs/core/${tag}-a.log`, 'hello\n');
    await plant(`logs/kernel/${tag}-b.log`, 'kernel line\n', { mtime });
    await plant(`logs/relay/${tag}-c.log`, '');
    // Not log files: another name pattern, a folder, a link, a file with a second name outside.
    await plant(`logs/kernel/${tag}-d.txt`, 'not a log\n');
    await plant(`logs/kernel/${tag}-dir.log/inner.log`, 'in a folder\n');
    await plant(`outside-${tag}.log`, 'TOP SECRET\n');
    await plantSymlink(`logs/kernel/${tag}-link.log`, `../../outside-${tag}.log`);
    await plantHardLink(`logs/kernel/${tag}-hard.log`, `outside-${tag}.log`);
    await plantFifo(`logs/kernel/${tag}-fifo.log`);

    const res = await call('/api/v1/system/logs');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['items']);
    expect(res.json.items.filter((item: { file: string }) => item.file.startsWith(tag))).toEqual([
      { stream: 'core', file: `${tag}-a.log`, size: 6, modified_at: expect.any(Number) },
      { stream: 'kernel', file: `${tag}-b.log`, size: 12, modified_at: mtime },
      { stream: 'relay', file: `${tag}-c.log`, size: 0, modified_at: expect.any(Number) },
    ]);
    for (const item of res.json.items) {
      expect(item).toEqual({
        stream: expect.stringMatching(/^(core|api|jobs|kernel|relay)$/),
        file: expect.stringMatching(/\.log$/),
        size: expect.any(Number),
        modified_at: expect.any(Number),
      });
    }
    const order = res.json.items.map((item: { stream: string; file: string }) => `${item.stream}/${item.file}`);
    expect(order).toEqual([...order].sort());
  });

  it('needs audit:read', async () => {
    const without = await tokenWith(['settings:write']);
    const denied = await call('/api/v1/system/logs', { token: without.token });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({
      error: { code: 'auth.scope_missing', message: expect.any(String), details: { missing: ['audit:read'] } },
      request_id: denied.headers.get('x-request-id'),
    });
    const reader = await tokenWith(['audit:read']);
    expect((await call('/api/v1/system/logs', { token: reader.token })).status).toBe(200);
    expect((await call(`/api/v1/system/logs/core/${tag}-a.log`, { token: without.token })).status).toBe(403);
    expect((await call(`/api/v1/system/logs/core/${tag}-a.log`, { token: reader.token })).status).toBe(200);
  });
});

describe('GET /api/v1/system/logs/{stream}/{file}', () => {
  it('returns a small file whole, with the entry fields', async () => {
    const mtime = secondsAgo(120_000);
    await plant(`logs/jobs/${tag}-small.log`, 'line one\nline two\n', { mtime });
    const res = await excerpt('jobs', `${tag}-small.log`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      stream: 'jobs',
      file: `${tag}-small.log`,
      size: 18,
      modified_at: mtime,
      text: 'line one\nline two\n',
      lines: 2,
      truncated: false,
    });
  });

  it('returns an empty file as no lines', async () => {
    const mtime = secondsAgo(180_000);
    await plant(`logs/core/${tag}-empty.log`, '', { mtime });
    const res = await excerpt('core', `${tag}-empty.log`);
    expect(res.json).toEqual({
      stream: 'core',
      file: `${tag}-empty.log`,
      size: 0,
      modified_at: mtime,
      text: '',
      lines: 0,
      truncated: false,
    });
  });

  it('counts a last line without a line break', async () => {
    await plant(`logs/core/${tag}-open.log`, 'first\nsecond');
    const res = await excerpt('core', `${tag}-open.log`);
    expect(res.json).toMatchObject({ size: 12, text: 'first\nsecond', lines: 2, truncated: false });
  });

  it('cuts a file over 256 KiB to its last 256 KiB of whole lines', async () => {
    const lines = numbered(600, 500); // 300,000 bytes
    await plant(`logs/api/${tag}-big.log`, lines.join(''));
    const res = await excerpt('api', `${tag}-big.log`);
    // The last 262,144 bytes start inside line 75; that partial line is left out.
    expect(res.json).toEqual({
      stream: 'api',
      file: `${tag}-big.log`,
      size: 300_000,
      modified_at: expect.any(Number),
      text: lines.slice(76).join(''),
      lines: 524,
      truncated: true,
    });
    expect(new TextEncoder().encode(res.json.text).length).toBeLessThanOrEqual(256 * 1024);
  });

  it('returns a file of exactly 256 KiB whole', async () => {
    const lines = numbered(512, 512);
    await plant(`logs/api/${tag}-exact.log`, lines.join(''));
    const res = await excerpt('api', `${tag}-exact.log`);
    expect(res.json).toMatchObject({ size: 262_144, text: lines.join(''), lines: 512, truncated: false });
  });

  it('cuts a file over 1000 lines to its last 1000 lines', async () => {
    const lines = numbered(1500, 20);
    await plant(`logs/kernel/${tag}-many.log`, lines.join(''));
    const res = await excerpt('kernel', `${tag}-many.log`);
    expect(res.json).toEqual({
      stream: 'kernel',
      file: `${tag}-many.log`,
      size: 30_000,
      modified_at: expect.any(Number),
      text: lines.slice(500).join(''),
      lines: 1000,
      truncated: true,
    });
    const exact = numbered(1000, 20);
    await plant(`logs/kernel/${tag}-thousand.log`, exact.join(''));
    expect((await excerpt('kernel', `${tag}-thousand.log`)).json).toMatchObject({
      text: exact.join(''),
      lines: 1000,
      truncated: false,
    });
  });

  it('leaves out a last 256 KiB that holds no line break at all, rather than serve part of a line', async () => {
    await plant(`logs/kernel/${tag}-one-line.log`, 'y', { repeat: 300_000 });
    const res = await excerpt('kernel', `${tag}-one-line.log`);
    expect(res.json).toMatchObject({ size: 300_000, text: '', lines: 0, truncated: true });
  });

  const invalid = (name: string) => ({
    code: 'request.invalid',
    message: expect.any(String),
    details: { issues: expect.arrayContaining([expect.objectContaining({ in: 'path', path: [name] })]) },
  });

  it.each([
    ['logs', 'a.log'],
    ['Core', 'a.log'],
    ['kernel2', 'a.log'],
    ['..%2Fcore', 'a.log'],
    ['core%2F..', 'a.log'],
  ])('refuses the stream %s with 400', async (stream, file) => {
    const res = await call(`/api/v1/system/logs/${stream}/${file}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: invalid('stream'), request_id: res.headers.get('x-request-id') });
  });

  it.each([
    ['.hidden.log'],
    ['-dash.log'],
    ['_under.log'],
    ['a.txt'],
    ['a.LOG'],
    ['.log'],
    ['a.log.1'],
    ['a%20b.log'],
    ['a%2Fb.log'],
    ['a%5Cb.log'],
    ['..%2F..%2Fvault.key'],
    ['..%2F..%2Foutside.log'],
    ['%2E%2E%2Fapi%2Fx.log'],
    ['a%00.log'],
    ['%E0%A4%A'],
    [`${'x'.repeat(152)}.log`],
  ])('refuses the file name %s with 400', async (file) => {
    const res = await call(`/api/v1/system/logs/core/${file}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: invalid('file'), request_id: res.headers.get('x-request-id') });
  });

  it.each([['nothing-here.log'], [`${'x'.repeat(151)}.log`], ['a..log']])(
    'answers 404 for the valid but absent name %s',
    async (file) => {
      expect(file.length).toBeLessThanOrEqual(155);
      const res = await call(`/api/v1/system/logs/core/${file}`);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({
        error: {
          code: 'resource.not_found',
          message: expect.any(String),
          details: { resource: 'log_file', stream: 'core', file },
        },
        request_id: res.headers.get('x-request-id'),
      });
    },
  );

  it('never reads through a link, a second name of a file, a folder or a FIFO', async () => {
    for (const file of [`${tag}-link.log`, `${tag}-hard.log`, `${tag}-dir.log`, `${tag}-fifo.log`]) {
      const res = await excerpt('kernel', file);
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('resource.not_found');
      expect(res.text).not.toContain('TOP SECRET');
    }
  });

  it.each([
    ['/api/v1/system/logs/core/../../../vault.key', '/api/v1/vault.key'],
    ['/api/v1/system/logs/%2E%2E/a.log', '/api/v1/system/a.log'],
    ['/api/v1/system/logs/core/%2e%2e/%2e%2e/%2e%2e/vault.key', '/api/v1/vault.key'],
  ])('resolves the dot segments of %s before routing, so they never reach a stream folder', async (path, resolved) => {
    const res = await call(path);
    expect(res.status).toBe(404);
    expect(res.json.error).toEqual({
      code: 'route.not_found',
      message: expect.any(String),
      details: { method: 'GET', path: resolved },
    });
  });

  it('is guarded on the host side too: names the worker would refuse are refused there', async () => {
    for (const [stream, file] of [
      ['core', '../../vault.key'],
      ['../../keys', 'vault.log'],
      ['core', '../outside.log'],
      ['core', `../../outside-${tag}.log`],
      ['core', 'a\u0000.log'],
      ['core', 'a\ud800.log'],
    ]) {
      const res = await rawHostCall('logs', 'tail', [stream, file, 100]);
      expect(res.status, `${stream}/${file}`).toBe(400);
      expect(await res.text()).not.toContain('TOP SECRET');
    }
    // Only LPA's own streams can be written through the host.
    expect((await rawHostCall('logs', 'append', ['kernel', []])).status).toBe(400);
  });
});
