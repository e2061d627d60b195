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

  it("changes the log retention; a value out of bounds is refused with the API's message, and a token without settings:write only reads it", async () => {
    const get = async (path: string, token = web.svc.current.token) =>
      (await raw(web.svc.current.port, path, { headers: { authorization: `Bearer ${token}` } })).json;
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Logs');
    const retention = page.getByRole('region', { name: 'Retention' });
    const program = retention.getByLabel('Program logs (days)');
    await expect.poll(() => program.inputValue()).toBe('30');
    await program.fill('400');
    await retention.getByRole('button', { name: 'Save log retention' }).click();
    await expect.poll(() => retention.getByRole('alert').textContent()).toContain('request.invalid');
    await program.fill('45');
    await retention.getByLabel('Browser-kernel logs (days)').fill('7');
    await retention.getByRole('button', { name: 'Save log retention' }).click();
    await expect.poll(() => get('/api/v1/settings/logs')).toEqual({ retention_days: 45, kernel_retention_days: 7 });
    await expect.poll(() => retention.getByRole('alert').count()).toBe(0);
    await expectAccessible(page);
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await page.context().close();

    const reader = (
      await raw(web.svc.current.port, '/api/v1/tokens', {
        method: 'POST',
        headers: { ...web.svc.auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'log reader', scopes: ['audit:read'] }),
      })
    ).json.token;
    const second = await web.open();
    await signIn(second.page, reader);
    await goTo(second.page, 'Logs');
    const readOnly = second.page.getByRole('region', { name: 'Retention' }).getByLabel('Program logs (days)');
    await expect.poll(() => readOnly.inputValue()).toBe('45');
    expect(await readOnly.getAttribute('readonly')).not.toBeNull();
    expect(await second.page.getByRole('button', { name: /^Save/ }).count()).toBe(0);
    expect(second.errors).toEqual([]);
    await second.page.context().close();
  });
});
