import { describe, expect, it } from 'vitest';
import { type Cookie, cookieUnder } from '../src/shared/cookies/cookie';
import { CookieContentError, detectFormat, readCookies, writeCookies } from '../src/shared/cookies/formats';

const NOW = 1_800_000_000;
const LATER = NOW + 86_400;

const cookie = (fields: Partial<Cookie> = {}): Cookie => ({
  name: 'sid',
  value: 'abc',
  domain: 'example.com',
  host_only: true,
  path: '/',
  secure: false,
  http_only: false,
  same_site: null,
  expires: LATER,
  ...fields,
});

const read = (content: string, format: 'auto' | 'json' | 'netscape' = 'auto') => readCookies(content, format, NOW);

describe('reading the JSON shapes', () => {
  it('reads the browser extensions’ export, every sameSite word and hostOnly', () => {
    const rows = [
      {
        domain: '.example.com',
        expirationDate: LATER + 0.5,
        hostOnly: false,
        httpOnly: true,
        name: 'a',
        path: '/x',
        sameSite: 'no_restriction',
        secure: true,
        session: false,
        storeId: '0',
        value: '1',
      },
      { domain: 'host.example.com', hostOnly: true, name: 'b', value: '2', sameSite: 'lax', session: true },
      { domain: 'example.org', hostOnly: true, name: 'c', value: '3', sameSite: 'strict', expirationDate: LATER },
      { domain: 'example.org', hostOnly: true, name: 'd', value: '4', sameSite: 'unspecified', expirationDate: LATER },
      { domain: 'example.org', hostOnly: true, name: 'e', value: '5', sameSite: null, expirationDate: LATER },
    ];
    const { cookies, errors } = read(JSON.stringify(rows));
    expect(errors).toEqual([]);
    expect(cookies.map((c) => c.cookie)).toEqual([
      cookie({
        name: 'a',
        value: '1',
        host_only: false,
        path: '/x',
        secure: true,
        http_only: true,
        same_site: 'none',
        expires: LATER + 0.5,
      }),
      cookie({ name: 'b', value: '2', domain: 'host.example.com', same_site: 'lax', expires: null }),
      cookie({ name: 'c', value: '3', domain: 'example.org', same_site: 'strict' }),
      cookie({ name: 'd', value: '4', domain: 'example.org' }),
      cookie({ name: 'e', value: '5', domain: 'example.org' }),
    ]);
  });

  it('reads a Playwright storageState, its cookies array alone, and Puppeteer’s page.cookies()', () => {
    const playwright = [
      {
        name: 'pw',
        value: 'v',
        domain: '.example.com',
        path: '/',
        expires: LATER,
        httpOnly: true,
        secure: true,
        sameSite: 'None',
      },
      {
        name: 'pw2',
        value: 'v',
        domain: 'example.com',
        path: '/',
        expires: -1,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax',
      },
    ];
    const expected = [
      cookie({ name: 'pw', value: 'v', host_only: false, http_only: true, secure: true, same_site: 'none' }),
      cookie({ name: 'pw2', value: 'v', same_site: 'lax', expires: null }),
    ];
    expect(read(JSON.stringify({ cookies: playwright, origins: [] })).cookies.map((c) => c.cookie)).toEqual(expected);
    expect(read(JSON.stringify(playwright), 'json').cookies.map((c) => c.cookie)).toEqual(expected);
    const puppeteer = [
      {
        name: 'pp',
        value: 'v',
        domain: 'example.com',
        path: '/',
        expires: LATER,
        size: 4,
        httpOnly: false,
        secure: true,
        session: false,
        sameSite: 'Strict',
        priority: 'Medium',
        sourceScheme: 'Secure',
      },
      {
        name: 'pp2',
        value: 'v',
        domain: 'example.com',
        path: '/',
        expires: -1,
        size: 5,
        httpOnly: false,
        secure: false,
        session: true,
      },
    ];
    expect(read(JSON.stringify(puppeteer)).cookies.map((c) => c.cookie)).toEqual([
      cookie({ name: 'pp', value: 'v', secure: true, same_site: 'strict' }),
      cookie({ name: 'pp2', value: 'v', expires: null }),
    ]);
  });

  it('reports each malformed row by its position and reads the others', () => {
    const rows = [
      { name: 'ok', value: '1', domain: 'example.com', expires: LATER },
      'not an object',
      null,
      [],
      { value: 'no name', domain: 'example.com' },
      { name: 'n', value: 1, domain: 'example.com' },
      { name: 'n', value: 'v' },
      { name: 'n', value: 'v', domain: 'example.com', sameSite: 'Sometimes' },
      { name: 'n', value: 'v', domain: 'example.com', hostOnly: true, sameSite: 'sideways' },
      { name: 'n', value: 'v', domain: 'example.com', expires: 'tomorrow' },
      { name: 'n', value: 'v', domain: 'example.com', expires: NOW - 10 },
      { name: 'n', value: 'v', domain: 'exa mple.com', expires: LATER },
      { name: 'n', value: 'v', domain: 'example.com', path: 'relative', expires: LATER },
      { name: 'n;x', value: 'v', domain: 'example.com', expires: LATER },
      { name: 'n', value: 'v\u0000', domain: 'example.com', expires: LATER },
      { name: 'n', value: 'v', domain: 'example.com', sameSite: 'None', secure: false, expires: LATER },
      { name: '__Host-x', value: 'v', domain: '.example.com', secure: true, expires: LATER },
      { name: '__Secure-x', value: 'v', domain: 'example.com', expires: LATER },
      { name: '', value: '', domain: 'example.com', expires: LATER },
      { name: 'n', value: 'v', domain: '', expires: LATER },
      { name: 'n', value: 'v', domain: '.com', expires: LATER },
      { name: 'ok2', value: '2', domain: 'example.com', hostOnly: true, expirationDate: LATER },
    ];
    const { cookies, errors } = read(JSON.stringify(rows));
    expect(cookies.map((c) => [c.row, c.cookie.name])).toEqual([
      [1, 'ok'],
      [22, 'ok2'],
    ]);
    expect(errors.map((e) => e.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    const message = (row: number) => errors.find((e) => e.row === row)!.message;
    expect(message(2)).toBe('a cookie is a JSON object');
    expect(message(5)).toMatch(/^name:/);
    expect(message(7)).toMatch(/^domain:/);
    expect(message(11)).toMatch(/^it expired at /);
    expect(message(16)).toMatch(/SameSite=None needs Secure/);
    expect(message(17)).toMatch(/__Host-/);
  });

  it('refuses content that is no cookie file at all, as a whole', () => {
    expect(() => read('{not json', 'json')).toThrow(CookieContentError);
    expect(() => read('{"cookie": []}')).toThrow(CookieContentError);
    expect(() => read('42', 'json')).toThrow(CookieContentError);
  });
});

describe('reading cookies.txt', () => {
  it('reads every field it carries, #HttpOnly_ lines and CRLF, and skips comments', () => {
    const text = [
      '# Netscape HTTP Cookie File',
      '',
      `.example.com\tTRUE\t/\tTRUE\t${LATER}\tdomain\tone`,
      `#HttpOnly_host.example.com\tFALSE\t/app\tFALSE\t${LATER}\thttp\ttwo`,
      'host.example.com\tFALSE\t/\tfalse\t0\tsession\tthree',
      `example.org\tFALSE\t/\tFALSE\t${LATER}\tempty`,
    ].join('\r\n');
    const { cookies, errors } = read(text);
    expect(errors).toEqual([]);
    expect(cookies.map((c) => [c.row, c.cookie])).toEqual([
      [3, cookie({ name: 'domain', value: 'one', host_only: false, secure: true })],
      [4, cookie({ name: 'http', value: 'two', domain: 'host.example.com', path: '/app', http_only: true })],
      [5, cookie({ name: 'session', value: 'three', domain: 'host.example.com', expires: null })],
      [6, cookie({ name: 'empty', value: '', domain: 'example.org' })],
    ]);
  });

  it('reports each malformed line by its number', () => {
    const text = [
      '# comment',
      'just some words',
      `example.com\tMAYBE\t/\tFALSE\t${LATER}\tn\tv`,
      `example.com\tFALSE\t/\tYES\t${LATER}\tn\tv`,
      'example.com\tFALSE\t/\tFALSE\tsoon\tn\tv',
      'example.com\tFALSE\t/\tFALSE\t-5\tn\tv',
      `example.com\tFALSE\t/\tFALSE\t${NOW - 1}\tn\tv`,
      `\tFALSE\t/\tFALSE\t${LATER}\tn\tv`,
      `example.com\tFALSE\t/\tFALSE\t${LATER}\tn\tv\textra`,
      `example.com\tFALSE\t/\tFALSE\t${LATER}\tgood\tv`,
    ].join('\n');
    const { cookies, errors } = read(text, 'netscape');
    expect(cookies.map((c) => [c.row, c.cookie.name])).toEqual([[10, 'good']]);
    expect(errors.map((e) => e.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(errors[0]!.message).toMatch(/7 fields/);
    expect(errors[1]!.message).toMatch(/include-subdomains is TRUE or FALSE/);
    expect(errors[3]!.message).toMatch(/seconds since 1970/);
  });
});

describe('writing and reading again', () => {
  const jar = [
    cookie({ name: 'a', host_only: false, secure: true, http_only: true, same_site: 'none', expires: LATER }),
    cookie({ name: 'b', domain: 'host.example.com', path: '/p', same_site: 'strict', expires: null }),
    cookie({ name: 'c', same_site: 'lax' }),
    cookie({ name: 'd', value: '' }),
  ];

  it('keeps every field in JSON', () => {
    const text = writeCookies(jar, 'json');
    expect(detectFormat(text)).toBe('json');
    expect(read(text).cookies.map((c) => c.cookie)).toEqual(jar);
  });

  it('keeps every field but SameSite in cookies.txt', () => {
    const text = writeCookies(jar, 'netscape');
    expect(detectFormat(text)).toBe('netscape');
    expect(read(text).cookies.map((c) => c.cookie)).toEqual(jar.map((c) => ({ ...c, same_site: null })));
  });

  it('keeps a cookie under a domain filter for the domain and its subdomains only', () => {
    expect(cookieUnder(cookie({ domain: 'a.example.com' }), 'example.com')).toBe(true);
    expect(cookieUnder(cookie({ domain: 'example.com' }), '.Example.com')).toBe(true);
    expect(cookieUnder(cookie({ domain: 'badexample.com' }), 'example.com')).toBe(false);
  });
});
