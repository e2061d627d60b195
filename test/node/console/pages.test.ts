import { describe, expect, it } from 'vitest';
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
