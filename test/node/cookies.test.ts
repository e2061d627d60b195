import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cookie } from '../../src/shared/cookies/cookie';
import { readCookies } from '../../src/shared/cookies/formats';
import type { Run } from '../../src/shared/schemas/run';
import { ensureChromium } from './chromium';
import { lpaRunner } from './cli-run';
import { RUNTIMES, type RunningService, startService } from './service';
import { laterApiClient } from './api-client';

const browser = ensureChromium();

/** Whole seconds a month ahead: within the 400 days Chromium keeps a cookie, and exact in every format. */
const LATER = Math.floor(Date.now() / 1000) + 30 * 86_400;

/** A jar with each field each format carries: HttpOnly, Secure, every SameSite, host-only and domain cookies, expiry. */
const JAR: Cookie[] = [
  {
    name: 'sid',
    value: 's3cr3t-value',
    domain: 'example.com',
    host_only: true,
    path: '/',
    secure: true,
    http_only: true,
    same_site: 'strict',
    expires: LATER,
  },
  {
    name: 'wide',
    value: 'w',
    domain: 'example.com',
    host_only: false,
    path: '/',
    secure: true,
    http_only: false,
    same_site: 'none',
    expires: LATER + 60,
  },
  {
    name: 'lax',
    value: 'l',
    domain: 'app.example.org',
    host_only: true,
    path: '/app',
    secure: false,
    http_only: true,
    same_site: 'lax',
    expires: LATER + 120,
  },
  {
    name: 'plain',
    value: 'p',
    domain: 'example.org',
    host_only: false,
    path: '/',
    secure: false,
    http_only: false,
    same_site: null,
    expires: LATER + 180,
  },
];

const sorted = (cookies: Cookie[]) => [...cookies].sort((a, b) => a.name.localeCompare(b.name));
/** The cookies of an export's content, read back as LPA reads an import. */
const jarOf = (content: string) => sorted(readCookies(content, 'auto', Date.now() / 1000).cookies.map((c) => c.cookie));

/** The jar in the extensions' export, Playwright's storageState and Puppeteer's page.cookies() shapes. */
const extensionShape = (jar: Cookie[]) =>
  JSON.stringify(
    jar.map((c) => ({
      domain: c.host_only ? c.domain : `.${c.domain}`,
      ...(c.expires === null ? {} : { expirationDate: c.expires }),
      hostOnly: c.host_only,
      httpOnly: c.http_only,
      name: c.name,
      path: c.path,
      sameSite: c.same_site === null ? 'unspecified' : c.same_site === 'none' ? 'no_restriction' : c.same_site,
      secure: c.secure,
      session: c.expires === null,
      storeId: '0',
      value: c.value,
    })),
  );
const capital = (c: Cookie) =>
  c.same_site === null ? {} : { sameSite: (c.same_site[0]!.toUpperCase() + c.same_site.slice(1)) as 'Strict' };
const playwrightShape = (jar: Cookie[]) =>
  JSON.stringify({
    cookies: jar.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.host_only ? c.domain : `.${c.domain}`,
      path: c.path,
      expires: c.expires,
      httpOnly: c.http_only,
      secure: c.secure,
      ...capital(c),
    })),
    origins: [],
  });
const puppeteerShape = (jar: Cookie[]) =>
  JSON.stringify(
    jar.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.host_only ? c.domain : `.${c.domain}`,
      path: c.path,
      expires: c.expires,
      size: c.name.length + c.value.length,
      httpOnly: c.http_only,
      secure: c.secure,
      session: false,
      priority: 'Medium',
      ...capital(c),
    })),
  );

describe.skipIf('skip' in browser).each(RUNTIMES)("a profile's cookies on %s", { timeout: 180_000 }, (runtime) => {
  let service: RunningService;
  let site: Server;
  let siteUrl: string;
  const seenCookies: string[] = [];
  const api = laterApiClient(() => service);
  const newProfile = async () =>
    (await api('/api/v1/profiles', { method: 'POST', body: { name: `cookies-${crypto.randomUUID().slice(0, 8)}` } }))
      .json.id as string;
  const importInto = (id: string, content: string, more: Record<string, unknown> = {}) =>
    api(`/api/v1/profiles/${id}/cookies`, { method: 'POST', body: { content, ...more } });
  const exported = async (id: string, query = 'format=json') => {
    const answer = await api(`/api/v1/profiles/${id}/cookies?${query}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json as { format: string; count: number; content: string };
  };

  beforeAll(async () => {
    site = createServer((req, res) => {
      seenCookies.push(req.headers.cookie ?? '');
      if (req.url === '/set') res.setHeader('set-cookie', 'fromPage=yes; Max-Age=3600; Path=/');
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>cookie page</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    service = await startService(runtime, undefined, { LPA_BROWSER: (browser as { path: string }).path });
  });
  afterAll(async () => {
    await service?.stop('SIGTERM');
    site?.close();
  });

  it('round-trips every field through each format on a stopped profile; cookies.txt loses SameSite alone', async () => {
    const id = await newProfile();
    const first = await importInto(id, extensionShape(JAR));
    expect(first.json).toEqual({ imported: 4, replaced: 0, errors: [] });
    const json = await exported(id);
    expect(json).toMatchObject({ format: 'json', count: 4 });
    expect(jarOf(json.content)).toEqual(sorted(JAR));

    const txt = await exported(id, 'format=netscape');
    expect(txt.content).toContain('#HttpOnly_example.com\tFALSE\t/\tTRUE');
    const fromTxt = await newProfile();
    expect((await importInto(fromTxt, txt.content, { format: 'netscape' })).json).toMatchObject({ imported: 4 });
    expect(jarOf((await exported(fromTxt)).content)).toEqual(sorted(JAR.map((c) => ({ ...c, same_site: null }))));

    for (const shape of [playwrightShape(JAR), puppeteerShape(JAR)]) {
      const other = await newProfile();
      expect((await importInto(other, shape)).json).toEqual({ imported: 4, replaced: 0, errors: [] });
      expect(jarOf((await exported(other)).content)).toEqual(sorted(JAR));
    }

    // Again into the first, merged: the same cookies take their own places; replaced, everything else goes.
    expect((await importInto(id, json.content, { mode: 'merge' })).json).toEqual({
      imported: 4,
      replaced: 4,
      errors: [],
    });
    expect((await importInto(id, extensionShape(JAR.slice(0, 1)), { mode: 'replace' })).json).toEqual({
      imported: 1,
      replaced: 4,
      errors: [],
    });
    expect((await exported(id, 'domain=example.org')).count).toBe(0);
    expect((await exported(id, 'domain=example.com')).count).toBe(1);
  });

  it('reads and writes a running profile through its browser: pages get them, HttpOnly hidden from scripts, session cookies too', async () => {
    const id = await newProfile();
    const started = await api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true } });
    expect(started.status).toBe(200);
    const run = started.json as Run;
    const local: Cookie[] = [
      {
        name: 'hidden',
        value: 'h1',
        domain: '127.0.0.1',
        host_only: true,
        path: '/',
        secure: false,
        http_only: true,
        same_site: 'lax',
        expires: LATER,
      },
      {
        name: 'shown',
        value: 's1',
        domain: '127.0.0.1',
        host_only: true,
        path: '/',
        secure: false,
        http_only: false,
        same_site: null,
        expires: null,
      },
    ];
    expect((await importInto(id, extensionShape(local))).json).toEqual({
      imported: 2,
      replaced: 0,
      errors: [],
    });
    const client = await puppeteer.connect({ browserWSEndpoint: run.ws_endpoint! });
    const page = await client.newPage();
    await page.goto(siteUrl);
    expect(seenCookies.at(-1)!.split('; ').sort()).toEqual(['hidden=h1', 'shown=s1']);
    expect(await page.evaluate(() => document.cookie)).toBe('shown=s1');
    // A cookie a site sets is the browser's, and an export sees it.
    await page.goto(`${siteUrl}set`);
    await client.disconnect();
    const live = jarOf((await exported(id)).content);
    expect(live.map((c) => c.name)).toEqual(['fromPage', 'hidden', 'shown']);
    expect(live.find((c) => c.name === 'shown')!.expires).toBeNull();
    expect(live.find((c) => c.name === 'hidden')).toEqual(local[0]);

    await api(`/api/v1/profiles/${id}/stop`, { method: 'POST' });
    // Stopped, the browser kept what outlives it: not the session cookie.
    expect(jarOf((await exported(id)).content).map((c) => c.name)).toEqual(['fromPage', 'hidden']);
  });

  it('reports malformed rows by row and imports the others whole; a stopped profile takes no session cookie', async () => {
    const id = await newProfile();
    const rows = [
      JSON.parse(extensionShape(JAR.slice(0, 1)))[0],
      { name: 'nodomain', value: 'x' },
      { name: 'stale', value: 'x', domain: 'example.com', expires: 1_000 },
      { name: 'nonesecure', value: 'x', domain: 'example.com', sameSite: 'None', expires: LATER },
      { name: 'session', value: 'x', domain: 'example.com', expires: -1 },
      { name: 'suffix', value: 'x', domain: '.com', expires: LATER },
      { name: 'huge', value: 'x'.repeat(4096), domain: 'example.com', expires: LATER },
      { name: 'ok', value: 'y', domain: 'example.net', expires: LATER },
    ];
    const answer = await importInto(id, JSON.stringify(rows));
    expect(answer.status).toBe(200);
    expect(answer.json, JSON.stringify(answer.json)).toMatchObject({ imported: 2 });
    expect(answer.json.errors.map((e: { row: number }) => e.row)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(answer.json.errors[3].message).toMatch(/session cookie/);
    expect(answer.json.errors[4].message).toMatch(/every host under "com"/);
    // Name and value together above 4,096 bytes: the browser's own refusal, found row by row.
    expect(answer.json.errors[5].message).toMatch(/the browser refused it/);
    expect(jarOf((await exported(id)).content).map((c) => c.name)).toEqual(['ok', 'sid']);

    const lines = `# Netscape HTTP Cookie File\nexample.com\tFALSE\t/\n.example.com\tTRUE\t/\tFALSE\t${LATER}\tgood\tv\n`;
    const txt = await importInto(id, lines);
    expect(txt.json).toMatchObject({ imported: 1, errors: [{ row: 2, message: expect.stringMatching(/7 fields/) }] });

    const unreadable = await importInto(id, '[not json', { format: 'json' });
    expect(unreadable.status).toBe(400);
    expect(unreadable.json.error).toMatchObject({ code: 'cookies.content_invalid', details: { format: 'json' } });
  });

  it('needs secrets:read to read them out, audits each read and write without a value', async () => {
    const id = await newProfile();
    await importInto(id, extensionShape(JAR));
    const token = async (scopes: string[]) =>
      (await api('/api/v1/tokens', { method: 'POST', body: { name: `t-${scopes.join('-')}`, scopes } })).json
        .token as string;
    const readOnly = await api(`/api/v1/profiles/${id}/cookies`, { token: await token(['profiles:read']) });
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.error).toMatchObject({ code: 'auth.scope_missing', details: { missing: ['secrets:read'] } });
    const allowed = await api(`/api/v1/profiles/${id}/cookies`, {
      token: await token(['profiles:read', 'secrets:read']),
    });
    expect(allowed.status).toBe(200);
    const writeRefused = await api(`/api/v1/profiles/${id}/cookies`, {
      method: 'POST',
      body: { content: '[]' },
      token: await token(['profiles:read', 'secrets:read']),
    });
    expect(writeRefused.json.error).toMatchObject({
      code: 'auth.scope_missing',
      details: { missing: ['profiles:write'] },
    });

    const audit = (await api('/api/v1/audit?category=profile&limit=100')).json.items as {
      action: string;
      entity_id: string;
      details: Record<string, unknown>;
    }[];
    const mine = audit.filter((entry) => entry.entity_id === id);
    expect(mine.find((e) => e.action === 'profiles.cookies_export')?.details).toMatchObject({
      format: 'json',
      count: 4,
    });
    expect(mine.find((e) => e.action === 'profiles.cookies_import')?.details).toMatchObject({
      imported: 4,
      mode: 'merge',
    });
    expect(JSON.stringify(audit)).not.toContain('s3cr3t-value');
  });

  it('imports from a file or standard input and exports to a private file with lpa profiles cookies', async () => {
    const lpa = lpaRunner(() => service);
    const id = await newProfile();
    const imported = await lpa(
      ['profiles', 'cookies', 'import', id, '-', '--json'],
      {},
      process.cwd(),
      playwrightShape(JAR),
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ imported: 4, replaced: 0, errors: [] });
    const file = join(mkdtempSync(join(tmpdir(), 'lpa-cookies-')), 'cookies.txt');
    const out = await lpa(['profiles', 'cookies', 'export', id, '--format', 'netscape', '--out', file]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`wrote 4 cookies to ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(jarOf(readFileSync(file, 'utf8'))).toEqual(sorted(JAR.map((c) => ({ ...c, same_site: null }))));
    const again = await lpa(['profiles', 'cookies', 'import', id, file, '--replace']);
    expect(again.stdout).toContain('imported 4, replaced 4, 0 rows not imported');
  });

  it('lets a start and a read of a stopped profile race: one waits for the other, both succeed', async () => {
    const id = await newProfile();
    await importInto(id, extensionShape(JAR));
    const [read, start] = await Promise.all([
      api(`/api/v1/profiles/${id}/cookies`),
      api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true } }),
    ]);
    expect(read.status).toBe(200);
    expect(read.json.count).toBe(4);
    expect(start.status).toBe(200);
    expect(jarOf((await exported(id)).content)).toEqual(sorted(JAR));
    await api(`/api/v1/profiles/${id}/stop`, { method: 'POST' });
  });
});
