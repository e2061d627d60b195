import { describe, expect, it } from 'vitest';
import { raw } from '../service';
import { expectAccessible, goTo, noChromium, outsideWindow, signIn, useConsole } from './browser';

const PAGES = ['Status', 'Profiles', 'Automation', 'Audit', 'Logs', 'Tokens'];

// On Deno: the console is served by every runtime (workerd and Bun in the other console tests).
describe.skipIf(noChromium)('the console: every page', { timeout: 120_000 }, () => {
  const web = useConsole('deno');

  it('is accessible and readable at 360 px and on a large screen, with no console error', async () => {
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    for (const width of [360, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      for (const name of PAGES) {
        await goTo(page, name);
        // Every load of the page has answered: no progress indicator left.
        await expect.poll(() => page.locator('progress').count(), { timeout: 20_000 }).toBe(0);
        await expectAccessible(page);
        // Nothing sticks out of the window; wide tables scroll inside their own box.
        expect({ name, width, wide: await outsideWindow(page) }).toEqual({ name, width, wide: [] });
      }
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('does not scroll sideways at 360 px on any page with data in it', async () => {
    const api = async (path: string, body: unknown, method = 'POST') => {
      const answer = await raw(web.svc.current.port, path, {
        method,
        headers: { ...web.svc.auth(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect([path, answer.status]).toEqual([path, expect.toSatisfy((status: number) => status < 300)]);
      return answer.json;
    };
    // Long unbroken values are what push a page wider than a phone.
    const long = 'https://accounts.example-platform-with-a-long-name.com/sign-in/with/a/long/path';
    const profile = await api('/api/v1/profiles', {
      name: 'A profile with a rather long name',
      group: 'a-group-name-without-any-spaces-in-it',
      tags: ['tag-one-is-long', 'tag-two-is-longer-still'],
      notes: 'notes',
    });
    await api(`/api/v1/profiles/${profile.id}/accounts`, {
      platform_url: long,
      username: 'someone@example.com',
      password: 'p',
    });
    await api('/api/v1/tokens', {
      name: 'a-token-with-a-long-name-and-no-spaces',
      scopes: ['audit:read', 'profiles:read', 'profiles:write'],
    });
    await api(
      '/api/v1/automation/globals/A_GLOBAL_WITH_A_LONG_NAME_THAT_GOES_ON',
      { value: long, expected_revision: 0 },
      'PUT',
    );
    const flow = await api('/api/v1/automation/flows', {
      name: 'a-flow-with-a-long-name',
      group: 'a-long-group-name',
      steps: [],
    });
    await api('/api/v1/automation/shares', {
      ids: [flow.id],
      name: 'a-share-with-a-long-name',
      expires_in_minutes: 60,
      max_uses: 1,
    });
    await api('/api/v1/automation/files', { name: 'a-file-with-a-rather-long-name.txt', base64: 'aGVsbG8=' });

    const { page, errors } = await web.open();
    await page.setViewportSize({ width: 360, height: 800 });
    await signIn(page, web.svc.current.token);
    const sideways = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    for (const name of PAGES) {
      await goTo(page, name);
      await expect.poll(() => page.locator('progress').count(), { timeout: 20_000 }).toBe(0);
      if (name === 'Profiles') {
        await page.getByRole('button', { name: 'A profile with a rather long name' }).click();
        await page.getByRole('button', { name: 'Edit account someone@example.com' }).click();
      }
      if (name === 'Automation') {
        await page.getByRole('button', { name: 'Edit flow a-flow-with-a-long-name' }).click();
        await page.getByRole('form', { name: 'Edit flow a-flow-with-a-long-name' }).waitFor();
      }
      if (name === 'Logs')
        await page
          .getByRole('button', { name: /\.log$/ })
          .first()
          .click();
      await expect.poll(() => page.locator('progress').count(), { timeout: 20_000 }).toBe(0);
      // Every page but Status lists its data in a table.
      if (name !== 'Status') await expect.poll(() => page.locator('main table').count()).toBeGreaterThan(0);
      expect({ name, sideways: await sideways(), wide: await outsideWindow(page) }).toEqual({
        name,
        sideways: 0,
        wide: [],
      });
    }
    await expectAccessible(page);
    // A profile never started answers its run with 404, which the browser logs; nothing else.
    expect(errors.filter((e) => !/status of 404 .*\/run$/.test(e))).toEqual([]);
    await page.context().close();
  });

  it("works from the keyboard alone: sign in, move between pages, land on each page's heading", async () => {
    const { page, errors } = await web.open();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('token');
    await page.keyboard.type(web.svc.current.token);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    for (const name of ['Audit', 'Tokens']) {
      // Focus is on the current page's heading; the navigation comes before it.
      let focused = '';
      for (let presses = 0; presses < 20 && focused !== name; presses++) {
        await page.keyboard.press('Shift+Tab');
        focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
      }
      expect(focused).toBe(name);
      await page.keyboard.press('Enter');
      await expect
        .poll(() =>
          page.evaluate(() => `${document.activeElement?.tagName ?? ''} ${document.activeElement?.textContent ?? ''}`),
        )
        .toBe(`H1 ${name}`);
    }
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Token').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
