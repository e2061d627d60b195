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

  it("shows only the actions the token's scopes allow, from GET /api/v1/tokens/self", async () => {
    const post = (path: string, body: unknown) =>
      raw(web.svc.current.port, path, {
        method: 'POST',
        headers: { ...web.svc.auth(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/api/v1/profiles', { name: 'seen' })).status).toBe(201);
    const reader = (await post('/api/v1/tokens', { name: 'profile reader', scopes: ['profiles:read'] })).json.token;
    const { page, errors } = await web.open();
    await signIn(page, reader);
    expect(await page.locator('[data-signed-in-as]').textContent()).toBe('profile reader');
    await goTo(page, 'Profiles');
    await page.getByRole('button', { name: 'seen' }).click();
    const profile = page.getByRole('region', { name: 'Profile seen' });
    await expect.poll(() => profile.textContent()).toContain('No platform account.');
    // It reads, and is offered nothing it would be refused.
    expect(await page.getByRole('region', { name: 'New profile' }).count()).toBe(0);
    expect(await profile.getByRole('button', { name: /Save profile|Delete profile/ }).count()).toBe(0);
    expect(await profile.getByRole('form', { name: 'Add a platform account' }).count()).toBe(0);
    // Nor its proxy, its cookies (which need secrets:read to read and profiles:write to write) or its browser.
    expect(
      await profile.getByRole('button', { name: /Save proxy|Check proxy|Export cookies|Import cookies|Start/ }).count(),
    ).toBe(0);
    expect(await profile.locator('dl').textContent()).toContain('Pinned');
    await expectAccessible(page);
    await goTo(page, 'Automation');
    await expect.poll(() => page.locator('progress').count()).toBe(0);
    expect(
      await page
        .getByRole('button', { name: /Upload|Create flow|New global|Preview|Run flow|Start the synchronizer/ })
        .count(),
    ).toBe(0);
    await goTo(page, 'Audit');
    await expect.poll(() => page.locator('progress').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Verify$|Download export|Download the public key/ }).count()).toBe(
      0,
    );
    await goTo(page, 'Tokens');
    await expect
      .poll(() => page.getByRole('region', { name: 'Live tokens' }).textContent())
      .toContain('auth.admin_required');
    expect(await page.getByRole('region', { name: 'Issue a token' }).count()).toBe(0);
    await expectAccessible(page);
    expect(errors.filter((e) => !e.includes('status of 403'))).toEqual([]);
    await page.context().close();

    // The admin token is offered every action.
    const admin = await web.open();
    await signIn(admin.page, web.svc.current.token);
    expect(await admin.page.locator('[data-signed-in-as]').textContent()).toMatch(/\(admin\)$/);
    await goTo(admin.page, 'Tokens');
    await admin.page.getByRole('region', { name: 'Issue a token' }).waitFor();
    await goTo(admin.page, 'Audit');
    await admin.page.getByRole('button', { name: 'Download export' }).waitFor();
    await admin.page.getByRole('button', { name: 'Verify', exact: true }).waitFor();
    expect(admin.errors).toEqual([]);
    await admin.page.context().close();
  });
});
