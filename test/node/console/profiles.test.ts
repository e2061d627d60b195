import { describe, expect, it } from 'vitest';
import { raw } from '../service';
import { expectAccessible, goTo, noChromium, signIn, useConsole } from './browser';

describe.skipIf(noChromium)('the console: Profiles', { timeout: 120_000 }, () => {
  const web = useConsole();
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
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('tells a token without secrets:read why the password stays hidden, and one without profiles:read why the list is empty', async () => {
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
    await detail.getByRole('button', { name: 'Reveal password of ann' }).click();
    await expect.poll(() => detail.getByRole('status').first().textContent()).toContain('lacks the scope secrets:read');
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
});
