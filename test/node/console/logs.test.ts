import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { raw } from '../service';
import { expectAccessible, goTo, noChromium, signIn, useConsole } from './browser';

describe.skipIf(noChromium)('the console: Logs', { timeout: 120_000 }, () => {
  const web = useConsole();

  it('lists the log files, shows an excerpt with line numbers, a line range and a search, and downloads it', async () => {
    const get = async (path: string) => (await raw(web.svc.current.port, path, { headers: web.svc.auth() })).json;
    const core = (await get('/api/v1/system/logs')).items.find((f: { stream: string }) => f.stream === 'core');
    expect(core).toBeDefined();
    const excerpt = await get(`/api/v1/system/logs/core/${core.file}`);
    const lines: string[] = excerpt.text.replace(/\n$/, '').split('\n');
    expect(lines.length).toBeGreaterThan(1);

    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Logs');
    await page.getByLabel('Stream').selectOption('core');
    await page.getByRole('button', { name: `core/${core.file}` }).click();
    const viewer = page.getByRole('region', { name: `Excerpt of core/${core.file}` });
    const shown = viewer.locator('[data-log-lines]');
    await expect.poll(async () => (await shown.textContent())?.split('\n').length).toBeGreaterThanOrEqual(lines.length);
    expect((await shown.textContent())!.split('\n')[0]!.trim()).toBe(`1  ${lines[0]}`.trim());
    await expectAccessible(page);

    await viewer.getByLabel('From line').fill('2');
    await viewer.getByLabel('To line').fill('2');
    await viewer.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => viewer.getByRole('status').textContent()).toMatch(/^1 of \d+ lines shown/);
    expect((await shown.textContent())!.trim()).toBe(`2  ${lines[1]}`.trim());

    const word = lines[0]!.match(/[A-Za-z]{4,}/)![0];
    await viewer.getByLabel('From line').fill('');
    await viewer.getByLabel('To line').fill('');
    await viewer.getByLabel('Find').fill(word.toUpperCase());
    await viewer.getByRole('button', { name: 'Show' }).click();
    const matching = lines.filter((line) => line.toLowerCase().includes(word.toLowerCase())).length;
    await expect
      .poll(() => viewer.getByRole('status').textContent())
      .toMatch(new RegExp(`^${matching} of \\d+ lines shown`));

    const download = page.waitForEvent('download');
    await viewer.getByRole('button', { name: 'Download excerpt' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`core-${core.file}`);
    expect(readFileSync((await file.path())!, 'utf8').startsWith(lines[0]!)).toBe(true);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
