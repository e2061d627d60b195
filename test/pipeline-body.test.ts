import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call } from './support/api';
import { BASE_URL, TEST_ADMIN_TOKEN } from './support/constants';

const PUT = { method: 'PUT' } as const;
const path = '/api/v1/settings/logs';

describe('request bodies', () => {
  it.each([undefined, 'text/plain', 'application/jsonx', 'application/x-json', 'multipart/form-data'])(
    'refuses Content-Type %s with 415',
    async (contentType) => {
      const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
      const res = await exports.default.fetch(`${BASE_URL}${path}`, {
        method: 'PUT',
        headers: { host: new URL(BASE_URL).host, authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...headers },
        body: '{"retention_days":5}',
      });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request.unsupported_media_type');
    },
  );

  it('accepts media type parameters', async () => {
    const res = await call(path, {
      ...PUT,
      body: { retention_days: 5 },
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses a declared body over 1 MiB with 413 before reading it', async () => {
    const res = await call(path, { ...PUT, body: `{"retention_days":5,"x":"${'a'.repeat(1024 * 1024)}"}` });
    expect(res.status).toBe(413);
    expect(res.json.error).toEqual({
      code: 'request.too_large',
      message: expect.any(String),
      details: { limit_bytes: 1048576 },
    });
  });

  it('enforces the limit on a chunked body with no Content-Length', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await exports.default.fetch(`${BASE_URL}${path}`, {
      method: 'PUT',
      headers: {
        host: new URL(BASE_URL).host,
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        'content-type': 'application/json',
      },
      body,
    });
    expect(res.status).toBe(413);
  });

  it.each(['', '{', '{"retention_days":}', 'nul', '{"a":1}{'])('refuses malformed JSON %j with 400', async (text) => {
    const res = await call(path, { ...PUT, body: text });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.malformed_json');
  });

  it('reports every invalid field with its path', async () => {
    const res = await call(path, { ...PUT, body: { retention_days: '5', kernel_retention_days: 366, extra: true } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    const issues = res.json.error.details.issues as { in: string; path: unknown[] }[];
    expect(issues.map((i) => [i.in, i.path])).toEqual(
      expect.arrayContaining([
        ['body', ['retention_days']],
        ['body', ['kernel_retention_days']],
        ['body', []],
      ]),
    );
  });

  it.each([[[1, 1]], [[365, 365]]])('accepts the bounds %j', async ([a, b]) => {
    const res = await call(path, { ...PUT, body: { retention_days: a, kernel_retention_days: b } });
    expect(res.json).toEqual({ retention_days: a, kernel_retention_days: b });
  });

  it.each([0, 366, 1.5, null, -1])('refuses retention_days %j', async (value) => {
    expect((await call(path, { ...PUT, body: { retention_days: value } })).status).toBe(400);
  });

  it.each(['[]', '"x"', '1', 'null'])('refuses a body that is not an object: %s', async (text) => {
    expect((await call(path, { ...PUT, body: text })).status).toBe(400);
  });

  it('refuses unknown and repeated query parameters', async () => {
    const unknown = await call('/api/v1/version?verbose=1');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.details.issues[0]).toMatchObject({ in: 'query', path: [] });
  });
});
