import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { raw } from '../service';
import { chromiumFound, expectAccessible, goTo, noChromium, outsideWindow, signIn, useConsole } from './browser';

/**
 * What the browser logs of the API's expected refusals: the latest run of a profile that never ran (404,
 * which the page shows as "Never started"), and a thumbnail in flight when a stop closes the browser (409).
 */
const expectedRefusal = (error: string) =>
  /status of 404 .*\/api\/v1\/profiles\/[^/]+\/run$/.test(error) ||
  /status of 409 .*\/api\/v1\/profiles\/[^/]+\/screenshot$/.test(error);

/** The value of a label–value fact (components/section.tsx, `Facts`) in a part of the page. */
const fact = (part: Locator, term: string) =>
  part
    .locator('dl.facts > div')
    .filter({ has: part.page().locator('dt', { hasText: new RegExp(`^${term}$`) }) })
    .locator('dd');

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe.skipIf(noChromium)('the console: Profiles', { timeout: 120_000 }, () => {
  // The profiles' browsers are the tests' own Chromium (docs/runs.md, The browser).
  const web = useConsole('workerd', { LPA_BROWSER: (chromiumFound as { path: string }).path });
  const api = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    raw(web.svc.current.port, path, {
      method: init.method,
      headers: { authorization: `Bearer ${init.token ?? web.svc.current.token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  it('pages, searches, creates, edits and deletes profiles; masks secrets until a deliberate, audited reveal', async () => {
    for (let i = 1; i <= 30; i++)
      await api('/api/v1/profiles', { method: 'POST', body: { name: `p${String(i).padStart(2, '0')}` } });
    const alpha = (await api('/api/v1/profiles', { method: 'POST', body: { name: 'alpha', tags: ['x'] } })).json;
    await api(`/api/v1/profiles/${alpha.id}/accounts`, {
      method: 'POST',
      body: {
        platform_url: 'https://mail.example',
        username: 'ann',
        password: 's3cret-pw',
        totp_secret: 'JBSWY3DPEHPK3PXP',
      },
    });

    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Profiles');
    const list = page.getByRole('region', { name: 'Profiles' });
    await expect.poll(() => list.textContent()).toContain('31 profiles');
    expect(await list.getByRole('row').count()).toBe(26);
    await list.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => list.getByRole('row').count()).toBe(7);
    await list.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => list.getByRole('row').count()).toBe(26);
    await expectAccessible(page);

    await list.getByRole('searchbox', { name: 'Search' }).fill('alpha');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => list.textContent()).toContain('1 profile matching “alpha”');
    await list.getByRole('button', { name: 'alpha' }).click();
    const detail = page.getByRole('region', { name: 'Profile alpha' });
    await expect.poll(() => detail.textContent()).toContain('https://mail.example');
    expect(await page.content()).not.toContain('s3cret-pw');
    await detail.getByRole('button', { name: 'Reveal password of ann' }).click();
    await expect.poll(() => detail.locator('[data-password]').textContent()).toBe('s3cret-pw');
    await detail.getByRole('button', { name: 'Show 2FA code of ann' }).click();
    await expect.poll(async () => (await detail.locator('[data-totp]').textContent()) ?? '').toMatch(/^\d{6}$/);
    const audited = (await api('/api/v1/audit?limit=10')).json.items.map((e: { action: string }) => e.action);
    expect(audited).toEqual(expect.arrayContaining(['profile_accounts.password_read', 'profile_accounts.totp_read']));
    await expectAccessible(page);

    await detail.getByLabel('Group').fill('team-b');
    await detail.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(async () => (await api(`/api/v1/profiles/${alpha.id}`)).json.group).toBe('team-b');

    const create = page.getByRole('region', { name: 'New profile' });
    await create.getByLabel('Name').fill('made in the console');
    await create.getByLabel('Tags (comma-separated)').fill('a, b, a');
    await create.getByRole('button', { name: 'Create profile' }).click();
    const made = page.getByRole('region', { name: 'Profile made in the console' });
    await made.waitFor();
    const found = (await api('/api/v1/profiles?q=made')).json.items;
    expect(found).toEqual([expect.objectContaining({ name: 'made in the console', tags: ['a', 'b'] })]);
    await made.getByRole('button', { name: 'Delete profile made in the console' }).click();
    await made.getByRole('button', { name: 'Delete made in the console and its accounts' }).click();
    await made.waitFor({ state: 'detached' });
    expect((await api('/api/v1/profiles?q=made')).json.items).toEqual([]);
    expect(errors.filter((e) => !expectedRefusal(e))).toEqual([]);
    await page.context().close();
  });

  it("sets a profile's proxy with its password write-only, and shows a check's result", async () => {
    const proxied = (await api('/api/v1/profiles', { method: 'POST', body: { name: 'proxied' } })).json;
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Profiles');
    const list = page.getByRole('region', { name: 'Profiles' });
    await list.getByRole('searchbox', { name: 'Search' }).fill('proxied');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await list.getByRole('button', { name: 'proxied' }).click();
    const detail = page.getByRole('region', { name: 'Profile proxied' });
    await detail.getByLabel('Proxy type').selectOption('http');
    await detail.getByLabel('Proxy host').fill('127.0.0.1');
    // Port 1: nothing listens there, so the check below fails as unreachable.
    await detail.getByLabel('Proxy port').fill('1');
    await detail.getByLabel('Proxy username').fill('ann');
    await detail.getByLabel('Proxy password').fill('proxy-pw-in-console');
    await detail.getByRole('button', { name: 'Save proxy' }).click();
    await expect
      .poll(async () => (await api(`/api/v1/profiles/${proxied.id}`)).json.proxy)
      .toEqual({ type: 'http', host: '127.0.0.1', port: 1, username: 'ann', password_set: true });
    await expect.poll(() => detail.getByLabel('Proxy password').getAttribute('placeholder')).toContain('stored');
    expect(await page.content()).not.toContain('proxy-pw-in-console');

    await detail.getByLabel('Check URL').fill('http://127.0.0.1:1/');
    await detail.getByRole('button', { name: 'Check proxy' }).click();
    await expect
      .poll(() => detail.getByRole('status', { name: 'Proxy check result' }).textContent())
      .toContain('proxy.unreachable');
    await expectAccessible(page);

    // Saving again with the password left blank keeps it.
    await detail.getByLabel('Proxy port').fill('2');
    await detail.getByRole('button', { name: 'Save proxy' }).click();
    await expect
      .poll(async () => (await api(`/api/v1/profiles/${proxied.id}`)).json.proxy)
      .toMatchObject({ port: 2, password_set: true });
    expect(errors.filter((e) => !expectedRefusal(e))).toEqual([]);
    await page.context().close();
  });

  it("starts a profile's browser from the page, shows its run, endpoints and a live PNG thumbnail, copies the endpoint, stops it", async () => {
    const runner = (await api('/api/v1/profiles', { method: 'POST', body: { name: 'runner' } })).json;
    const { page, errors } = await web.open('/', ['clipboard-read', 'clipboard-write']);
    const screenshots: string[] = [];
    page.on(
      'request',
      (request) => request.url().endsWith(`/${runner.id}/screenshot`) && screenshots.push(request.url()),
    );
    // At 360 px: the endpoints, the thumbnail and the Running column must all fit a phone's width.
    await page.setViewportSize({ width: 360, height: 900 });
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Profiles');
    const list = page.getByRole('region', { name: 'Profiles' });
    await list.getByRole('searchbox', { name: 'Search' }).fill('runner');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => list.textContent()).toContain('1 profile matching “runner”');
    await list.getByRole('columnheader', { name: 'Running' }).waitFor();
    const row = list.getByRole('row').filter({ hasText: 'runner' });
    expect(await row.getByRole('cell').last().textContent()).toBe('no');
    await row.getByRole('button', { name: 'runner' }).click();
    const detail = page.getByRole('region', { name: 'Profile runner' });
    await expect.poll(() => detail.textContent()).toContain('Never started.');

    await detail.getByRole('form', { name: 'Start the browser' }).getByLabel('Headless').check();
    await detail.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => fact(detail, 'State').textContent(), { timeout: 30_000 }).toBe('running');
    // The pressed Start gave way to Stop, and focus went with it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stop');
    const run = (await api(`/api/v1/profiles/${runner.id}/run`)).json;
    expect(run).toMatchObject({ state: 'running', headless: true });
    expect(await fact(detail, 'Run').textContent()).toBe(run.id);
    expect(await fact(detail, 'Browser').textContent()).toBe(run.browser_version);
    expect(await fact(detail, 'WebSocket endpoint').locator('code').textContent()).toBe(run.ws_endpoint);
    expect(await fact(detail, 'HTTP endpoint').locator('code').textContent()).toBe(run.http_endpoint);
    await detail.getByRole('button', { name: 'Copy WebSocket endpoint' }).click();
    await expect.poll(() => fact(detail, 'WebSocket endpoint').getByRole('status').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(run.ws_endpoint);
    // The list's Running column follows the open profile's run.
    await expect.poll(() => row.getByRole('cell').last().textContent()).toBe('running');

    const thumbnail = detail.getByRole('img', { name: "The browser's first page" });
    await thumbnail.waitFor();
    const src = (await thumbnail.getAttribute('src'))!;
    expect(src).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(src.slice(src.indexOf(',') + 1), 'base64');
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // Taken again while it is shown (every 3 s).
    await expect.poll(() => screenshots.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(await outsideWindow(page)).toEqual([]);
    await expectAccessible(page);

    await detail.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => fact(detail, 'State').textContent(), { timeout: 20_000 }).toBe('stopped');
    expect(await fact(detail, 'End reason').textContent()).toBe('stopped');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Start');
    expect(await thumbnail.count()).toBe(0);
    expect(await detail.getByRole('button', { name: 'Copy WebSocket endpoint' }).count()).toBe(0);
    await expect.poll(() => row.getByRole('cell').last().textContent()).toBe('no');
    expect((await api(`/api/v1/profiles/${runner.id}/run`)).json).toMatchObject({ id: run.id, state: 'stopped' });

    // A second run, killed at once.
    await detail.getByRole('form', { name: 'Start the browser' }).getByLabel('Headless').check();
    await detail.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => fact(detail, 'State').textContent(), { timeout: 30_000 }).toBe('running');
    expect(await fact(detail, 'Run').textContent()).not.toBe(run.id);
    await detail.getByRole('button', { name: 'Force stop' }).click();
    await expect.poll(() => fact(detail, 'End reason').textContent(), { timeout: 20_000 }).toBe('killed');
    await expectAccessible(page);
    expect(errors.filter((e) => !expectedRefusal(e))).toEqual([]);
    await page.context().close();
  });

  it("keeps a profile's browser settings from its form, and imports and exports its cookies", async () => {
    const jarred = (await api('/api/v1/profiles', { method: 'POST', body: { name: 'jarred' } })).json;
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Profiles');
    const list = page.getByRole('region', { name: 'Profiles' });
    await list.getByRole('searchbox', { name: 'Search' }).fill('jarred');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await list.getByRole('button', { name: 'jarred' }).click();
    const detail = page.getByRole('region', { name: 'Profile jarred' });
    await detail.getByLabel('User agent').fill('Console-Agent/1');
    await detail.getByLabel('Time zone').fill('Europe/Berlin');
    await detail.getByLabel('Languages').fill('de-DE, en');
    await detail.getByRole('button', { name: 'Save profile' }).click();
    await expect
      .poll(async () => (await api(`/api/v1/profiles/${jarred.id}`)).json.browser)
      .toMatchObject({ user_agent: 'Console-Agent/1', timezone: 'Europe/Berlin', languages: ['de-DE', 'en'] });

    const later = Math.floor(Date.now() / 1000) + 86_400;
    await detail
      .getByLabel('Cookies (JSON')
      .fill(`# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tFALSE\t${later}\tconsole\tc1\nbroken line\n`);
    await detail.getByRole('button', { name: 'Import cookies' }).click();
    await expect
      .poll(() => detail.textContent(), { timeout: 30_000 })
      .toContain('Imported 1, replaced 0, 1 row not imported.');
    expect(await detail.getByRole('list', { name: 'Rows not imported' }).textContent()).toContain('Row 3:');
    await detail.getByRole('button', { name: 'Export cookies' }).click();
    const content = detail.getByRole('textbox', { name: 'The exported cookies' });
    await expect.poll(() => content.inputValue(), { timeout: 30_000 }).toContain('"name": "console"');
    await expectAccessible(page);
    expect(errors.filter((e) => !expectedRefusal(e))).toEqual([]);
  });

  it('offers a token without secrets:read no reveal of the password, and tells one without profiles:read why the list is empty', async () => {
    const reader = (
      await api('/api/v1/tokens', { method: 'POST', body: { name: 'profiles reader', scopes: ['profiles:read'] } })
    ).json.token;
    const { page, errors } = await web.open();
    await signIn(page, reader);
    await goTo(page, 'Profiles');
    const list = page.getByRole('region', { name: 'Profiles' });
    await list.getByRole('searchbox', { name: 'Search' }).fill('alpha');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await list.getByRole('button', { name: 'alpha' }).click();
    const detail = page.getByRole('region', { name: 'Profile alpha' });
    // No secrets:read: the password stays masked, with no reveal button the API would refuse.
    await expect.poll(() => detail.getByLabel('masked').count()).toBe(1);
    expect(await detail.getByRole('button', { name: /^Reveal password/ }).count()).toBe(0);
    // No runtime:control: the Browser part says so, and offers no control that would be refused.
    await expect
      .poll(() => detail.getByRole('status').first().textContent())
      .toContain('lacks the scope runtime:control');
    expect(await detail.getByRole('button', { name: /^(Start|Stop|Force stop)$/ }).count()).toBe(0);
    expect(await list.getByRole('columnheader', { name: 'Running' }).count()).toBe(0);
    await expectAccessible(page);
    await page.context().close();

    const none = (await api('/api/v1/tokens', { method: 'POST', body: { name: 'nothing', scopes: [] } })).json.token;
    const second = await web.open();
    await signIn(second.page, none);
    await goTo(second.page, 'Profiles');
    await expect
      .poll(() => second.page.getByRole('region', { name: 'Profiles' }).textContent())
      .toContain('lacks the scope profiles:read');
    await expectAccessible(second.page);
    expect([...errors, ...second.errors].filter((e) => !e.includes('status of 403'))).toEqual([]);
    await second.page.context().close();
  });

  it('filters the list by group, tag and pinned, and sorts it by any key in either order', async () => {
    for (const [name, tags, pinned] of [
      ['f-bravo', ['red'], true],
      ['f-alpha', ['red', 'blue'], false],
      ['f-charlie', ['blue'], true],
    ] as const)
      await api('/api/v1/profiles', { method: 'POST', body: { name, group: 'filters', tags, pinned } });
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Profiles');
    const list = page.getByRole('region', { name: 'Profiles' });
    const names = () => list.locator('tbody tr button.link').allTextContents();
    await list.getByRole('textbox', { name: 'Group' }).fill('filters');
    await list.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Name' });
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(names).toEqual(['f-alpha', 'f-bravo', 'f-charlie']);
    expect(await list.textContent()).toContain('3 profiles (filtered)');
    await list.getByRole('combobox', { name: 'Order' }).selectOption({ label: 'descending' });
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(names).toEqual(['f-charlie', 'f-bravo', 'f-alpha']);
    await list.getByRole('textbox', { name: 'Tag' }).fill('red');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(names).toEqual(['f-bravo', 'f-alpha']);
    await list.getByRole('combobox', { name: 'Pinned' }).selectOption({ label: 'pinned' });
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(names).toEqual(['f-bravo']);
    await list.getByRole('combobox', { name: 'Pinned' }).selectOption({ label: 'not pinned' });
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(names).toEqual(['f-alpha']);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('edits a platform account: its fields, a new password kept secret, and a removed 2FA secret', async () => {
    const profile = (await api('/api/v1/profiles', { method: 'POST', body: { name: 'editable' } })).json;
    const account = (
      await api(`/api/v1/profiles/${profile.id}/accounts`, {
        method: 'POST',
        body: {
          platform_url: 'https://old.example',
          username: 'old',
          password: 'old-pw',
          totp_secret: 'JBSWY3DPEHPK3PXP',
        },
      })
    ).json;
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Profiles');
    const list = page.getByRole('region', { name: 'Profiles' });
    await list.getByRole('searchbox', { name: 'Search' }).fill('editable');
    await list.getByRole('button', { name: 'Search', exact: true }).click();
    await list.getByRole('button', { name: 'editable' }).click();
    const detail = page.getByRole('region', { name: 'Profile editable' });
    await detail.getByRole('button', { name: 'Edit account old' }).click();
    const form = detail.getByRole('form', { name: 'Change account old' });
    expect(await form.getByLabel('Platform URL').inputValue()).toBe('https://old.example');
    await expectAccessible(page);
    await form.getByLabel('Platform URL').fill('https://new.example');
    await form.getByLabel('Username').fill('new');
    await form.getByLabel('New password (blank: keep)').fill('new-pw');
    await form.getByLabel('Remove the 2FA (TOTP) secret').check();
    await form.getByRole('button', { name: 'Save account' }).click();
    await expect.poll(() => detail.locator('.accounts').textContent()).toContain('https://new.example as new');
    expect(await detail.locator('.accounts').textContent()).toContain('2FA: not set');
    const path = `/api/v1/profiles/${profile.id}/accounts/${account.id}`;
    expect((await api(`${path}/password`)).json).toEqual({ password: 'new-pw' });
    expect((await api(`/api/v1/profiles/${profile.id}/accounts`)).json.items[0]).toMatchObject({
      platform_url: 'https://new.example',
      username: 'new',
      password_set: true,
      totp_set: false,
    });
    expect(errors.filter((e) => !expectedRefusal(e))).toEqual([]);
    await page.context().close();
  });
});
