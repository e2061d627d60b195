import { BROWSER_DEFAULTS } from '../../../src/shared/schemas/browser-settings';
import { describe, expect, it } from 'vitest';
import { ApiFailure, apiPath, createApi, failureOf, NOT_AN_ENVELOPE, UNREACHABLE } from '../../../src/console/api';
import { countPerDay, windowStart } from '../../../src/console/audit-days';
import { auditFilters } from '../../../src/console/audit-query';
import { base64ToBytes, bytesToBase64 } from '../../../src/console/files';
import { bytes, time } from '../../../src/console/format';
import { excerptLines } from '../../../src/console/log-view';
import { accountBody, profileBody, proxyBody } from '../../../src/console/profile-form';

describe('the console API client', () => {
  it('leaves blank query values out and encodes the rest', () => {
    expect(apiPath('/api/v1/audit', { action: 'a b&c', search: '', to: null, from: undefined, limit: 50 })).toBe(
      '/api/v1/audit?action=a+b%26c&limit=50',
    );
    expect(apiPath('/api/v1/audit', { search: '' })).toBe('/api/v1/audit');
  });

  it('turns an envelope into its code, message, details and request id, and names the missing scopes', () => {
    const failure = failureOf(403, {
      error: { code: 'auth.scope_missing', message: 'Missing scope', details: { missing: ['audit:read'] } },
      request_id: 'r1',
    });
    expect([failure.status, failure.code, failure.message, failure.requestId, failure.missingScopes]).toEqual([
      403,
      'auth.scope_missing',
      'Missing scope',
      'r1',
      ['audit:read'],
    ]);
    expect(
      failureOf(409, { error: { code: 'state.revision_conflict', message: 'x', details: { missing: ['y'] } } })
        .missingScopes,
    ).toEqual([]);
    expect(failureOf(502, '<html>').code).toBe(NOT_AN_ENVELOPE);
  });

  it('sends the bearer token and a JSON body, and fails with the console codes when no envelope comes', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const answers = [new Response('{"ok":true}'), new Response('not json', { status: 500 })];
    const api = createApi('lpa_x', async (url, init) => {
      seen.push({ url: String(url), init: init! });
      return answers.shift() ?? Promise.reject(new TypeError('network down'));
    });
    expect(await api.call('PUT', '/api/v1/x', { body: { a: 1 }, query: { q: 'v' } })).toEqual({ ok: true });
    expect(seen[0]).toMatchObject({
      url: '/api/v1/x?q=v',
      init: {
        method: 'PUT',
        body: '{"a":1}',
        headers: { authorization: 'Bearer lpa_x', 'content-type': 'application/json' },
      },
    });
    await expect(api.get('/y')).rejects.toMatchObject({ status: 500, code: NOT_AN_ENVELOPE });
    const unreachable = await api.get('/z').catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(ApiFailure);
    expect((unreachable as ApiFailure).code).toBe(UNREACHABLE);
  });
});

describe('the audit chart', () => {
  const now = Date.parse('2030-03-10T15:00:00Z');

  it('counts per UTC day and result over the window, empty days included, oldest first', () => {
    const entries = [
      { ts: Date.parse('2030-03-10T00:00:00Z'), result: 'ok' as const },
      { ts: Date.parse('2030-03-10T23:59:59Z'), result: 'denied' as const },
      { ts: Date.parse('2030-03-08T12:00:00Z'), result: 'error' as const },
      { ts: Date.parse('2030-03-07T23:59:59Z'), result: 'ok' as const },
    ];
    expect(countPerDay(entries, 3, now)).toEqual([
      { day: '2030-03-08', ok: 0, denied: 0, error: 1 },
      { day: '2030-03-09', ok: 0, denied: 0, error: 0 },
      { day: '2030-03-10', ok: 1, denied: 1, error: 0 },
    ]);
    expect(windowStart(3, now)).toBe(Date.parse('2030-03-08T00:00:00Z'));
  });
});

describe('the audit filters', () => {
  it('takes the filled fields, and the "to" day through its last millisecond', () => {
    const form = new FormData();
    for (const [name, value] of Object.entries({
      result: 'denied',
      category: '',
      action: ' tokens.create ',
      search: '',
      from: '2030-03-08',
      to: '2030-03-09',
    }))
      form.set(name, value);
    expect(auditFilters(form)).toEqual({
      result: 'denied',
      action: 'tokens.create',
      from: Date.parse('2030-03-08T00:00:00Z'),
      to: Date.parse('2030-03-10T00:00:00Z') - 1,
    });
  });
});

describe('files and sizes', () => {
  it('round-trips bytes through base64, beyond one slice', () => {
    const data = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256);
    expect(bytesToBase64(data)).toBe(Buffer.from(data).toString('base64'));
    expect(base64ToBytes(bytesToBase64(data))).toEqual(data);
  });

  it('writes an absent time as "never", never as a date in 1970', () => {
    expect([time(null), time(undefined), time(0), time(-1), time('')]).toEqual([
      'never',
      'never',
      'never',
      'never',
      'never',
    ]);
    const at = Date.UTC(2026, 10, 27, 12);
    expect(time(at)).toBe(new Date(at).toLocaleString());
    expect(time(new Date(at).toISOString())).toBe(new Date(at).toLocaleString());
  });

  it('writes sizes in binary units', () => {
    expect([bytes(null), bytes(512), bytes(1536), bytes(3 * 1024 ** 3)]).toEqual([
      'unknown',
      '512 bytes',
      '1.5 KiB',
      '3.0 GiB',
    ]);
  });
});

describe('the profile and account forms', () => {
  const formOf = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    return form;
  };

  it('makes blank text null, tags a trimmed unique list, and pinned a boolean', () => {
    expect(profileBody(formOf({ name: ' a ', group: ' ', tags: 'x, y ,x,,', notes: '', pinned: 'on' }))).toEqual({
      name: 'a',
      group: null,
      tags: ['x', 'y'],
      pinned: true,
      notes: null,
      browser: BROWSER_DEFAULTS,
    });
    expect(profileBody(formOf({ name: 'b', group: 'g', tags: '', notes: 'n' }))).toEqual({
      name: 'b',
      group: 'g',
      tags: [],
      pinned: false,
      notes: 'n',
      browser: BROWSER_DEFAULTS,
    });
  });

  it('reads the browser settings: a window only with both sides, lists by line or comma, blanks as null', () => {
    const browser = (fields: Record<string, string>) => profileBody(formOf({ name: 'c', ...fields })).browser;
    expect(
      browser({
        headless: 'on',
        window_width: '1280',
        window_height: '800',
        start_urls: 'https://a.example/\n\nhttps://b.example/',
        user_agent: ' UA/1 ',
        languages: 'de-DE, en,',
        timezone: 'Europe/Berlin',
        args: '--mute-audio',
      }),
    ).toEqual({
      headless: true,
      window: { width: 1280, height: 800 },
      start_urls: ['https://a.example/', 'https://b.example/'],
      user_agent: 'UA/1',
      languages: ['de-DE', 'en'],
      timezone: 'Europe/Berlin',
      args: ['--mute-audio'],
    });
    expect(browser({ window_width: '1280', user_agent: ' ', languages: ' , ' })).toEqual(BROWSER_DEFAULTS);
  });

  it('sends a secret only when one was typed, spaces kept', () => {
    expect(
      accountBody(formOf({ platform_url: 'https://x', username: '', password: ' p ', totp_secret: '', notes: '' })),
    ).toEqual({ platform_url: 'https://x', username: null, notes: null, password: ' p ' });
  });

  it("sends a proxy's password only when typed, null when removed, and no proxy for the type none", () => {
    const proxy = { proxy_type: 'socks5', proxy_host: ' h ', proxy_port: '1080', proxy_username: '' };
    expect(proxyBody(formOf({ ...proxy, proxy_password: '' }))).toEqual({
      type: 'socks5',
      host: 'h',
      port: 1080,
      username: null,
    });
    expect(proxyBody(formOf({ ...proxy, proxy_password: ' p ' }))?.password).toBe(' p ');
    expect(proxyBody(formOf({ ...proxy, proxy_password: 'p', proxy_password_remove: 'on' }))?.password).toBeNull();
    expect(proxyBody(formOf({ ...proxy, proxy_type: '' }))).toBeNull();
  });
});

describe('the log excerpt viewer', () => {
  const text = 'alpha one\nBeta two\ngamma three\nbeta four\n';

  it('numbers the lines from 1 and keeps a range and a case-insensitive search', () => {
    expect(excerptLines(text, {})).toEqual([
      { no: 1, text: 'alpha one' },
      { no: 2, text: 'Beta two' },
      { no: 3, text: 'gamma three' },
      { no: 4, text: 'beta four' },
    ]);
    expect(excerptLines(text, { from: 2, to: 3 }).map((l) => l.no)).toEqual([2, 3]);
    expect(excerptLines(text, { search: ' BETA ' }).map((l) => l.no)).toEqual([2, 4]);
    expect(excerptLines(text, { from: 3, search: 'beta' }).map((l) => l.no)).toEqual([4]);
    expect(excerptLines('', {})).toEqual([]);
  });
});
