import { describe, expect, it } from 'vitest';
import { raw } from '../service';
import { expectAccessible, goTo, noChromium, signIn, useConsole } from './browser';

describe.skipIf(noChromium)('the console: Tokens, and what a scope-limited token sees', { timeout: 120_000 }, () => {
  const web = useConsole();

  it('issues a token with chosen scopes, shows its secret once with a copy button, lists it, and revokes it', async () => {
    const { page, errors } = await web.open('/', ['clipboard-read', 'clipboard-write']);
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Tokens');
    await expectAccessible(page);
    await page.getByLabel('Name').fill('reader');
    await page.getByRole('checkbox', { name: 'audit:read' }).check();
    await page.getByRole('button', { name: 'Issue token' }).click();
    const secret = page.getByRole('region', { name: 'Token “reader”' });
    await secret.waitFor();
    const token = (await secret.locator('[data-secret]').textContent())!.trim();
    expect(token).toMatch(/^lpa_/);
    await secret.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => secret.getByRole('status').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    // The API agrees: the token exists with exactly that scope, and works.
    const listed = (await raw(web.svc.current.port, '/api/v1/tokens', { headers: web.svc.auth() })).json.items;
    expect(listed).toContainEqual(expect.objectContaining({ name: 'reader', scopes: ['audit:read'], admin: false }));
    expect(
      (await raw(web.svc.current.port, '/api/v1/version', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    const row = page.getByRole('row').filter({ hasText: 'reader' });
    await expect.poll(() => row.count()).toBe(1);
    await expectAccessible(page);

    await row.getByRole('button', { name: 'Revoke reader' }).click();
    await row.getByRole('button', { name: 'Revoke reader now' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'reader' }).count()).toBe(0);
    const refused = await raw(web.svc.current.port, '/api/v1/version', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect([refused.status, refused.json.error.code]).toEqual([401, 'auth.token_invalid']);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a limited token what its scopes allow, and a clear message where they do not', async () => {
    const created = await raw(web.svc.current.port, '/api/v1/tokens', {
      method: 'POST',
      headers: { ...web.svc.auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'status only', scopes: [] }),
    });
    const { page, errors } = await web.open();
    await signIn(page, created.json.token);
    await goTo(page, 'Status');
    await expect.poll(() => page.getByRole('region', { name: 'Core' }).textContent()).toContain('normal');
    await goTo(page, 'Tokens');
    await expect
      .poll(() => page.getByRole('region', { name: 'Live tokens' }).textContent())
      .toContain('auth.admin_required');
    await expect
      .poll(() => page.getByRole('region', { name: 'Live tokens' }).textContent())
      .toContain('needs an admin session');
    await expectAccessible(page);
    // The browser logs the refused calls themselves (HTTP 403); nothing else.
    expect(errors.filter((e) => !e.includes('status of 403'))).toEqual([]);
    await page.context().close();
  });
});
