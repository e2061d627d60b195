import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { raw } from '../service';
import { expectAccessible, goTo, noChromium, signIn, useConsole } from './browser';

describe.skipIf(noChromium)('the console: Automation', { timeout: 120_000 }, () => {
  const web = useConsole();
  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    raw(web.svc.current.port, path, {
      method: init.method,
      headers: { ...web.svc.auth(), 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  it('creates a flow from the page on a fresh store (steps, values, a protected value), which a share can then hold', async () => {
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Automation');
    const flows = page.getByRole('region', { name: 'Flows' });
    const shares = page.getByRole('region', { name: 'Shares' });
    await expect.poll(() => shares.textContent()).toContain('there is none to share');
    const form = flows.getByRole('form', { name: 'New flow' });
    await form.getByLabel('Flow name').fill('first-flow');
    await form.getByLabel('Flow group').fill('daily');
    await form.getByLabel('Steps (a JSON array)').fill('{"type": "wait"}');
    await form.getByRole('button', { name: 'Create flow' }).click();
    // Steps that are not a JSON array are refused before any call.
    await expect.poll(() => flows.getByRole('alert').textContent()).toContain('JSON array');
    await form.getByLabel('Steps (a JSON array)').fill('[{"type": "wait", "ms": 10}]');
    await form.getByLabel('Values (name=value, one a line)').fill('greeting=hello\nempty');
    await form.getByLabel(/^Protected values/).fill('api_key=s3cret');
    await form.getByRole('button', { name: 'Create flow' }).click();
    await expect.poll(() => flows.getByRole('row').filter({ hasText: 'first-flow' }).count()).toBe(1);
    await expectAccessible(page);
    const listed = (await api('/api/v1/automation/flows')).json.items;
    expect(listed).toEqual([
      expect.objectContaining({ name: 'first-flow', group: 'daily', step_count: 1, value_count: 3 }),
    ]);
    expect((await api(`/api/v1/automation/flows/${listed[0].id}`)).json).toMatchObject({
      steps: [{ type: 'wait', ms: 10 }],
      values: [
        { name: 'greeting', value: 'hello', protected: false },
        { name: 'empty', value: null, protected: false },
        { name: 'api_key', value: null, protected: true, value_set: true },
      ],
    });
    // Now a share can be made of it.
    await shares.getByRole('checkbox', { name: 'first-flow' }).check();
    await shares.getByLabel('Share name').fill('first share');
    await shares.getByRole('button', { name: 'Create share' }).click();
    await page.getByRole('region', { name: 'Share code of “first share”' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('edits a flow in the form it was created with: fields filled in, a protected value kept by its name; only for a token that may', async () => {
    const created = await api('/api/v1/automation/flows', {
      method: 'POST',
      body: {
        name: 'to-edit',
        group: 'daily',
        steps: [{ type: 'wait', ms: 10 }],
        values: [
          { name: 'greeting', value: 'hello' },
          { name: 'api_key', value: 'CONSOLE-EDIT-SECRET', protected: true },
        ],
      },
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Automation');
    const flows = page.getByRole('region', { name: 'Flows' });
    await flows.getByRole('button', { name: 'Edit flow to-edit' }).click();
    const form = flows.getByRole('form', { name: 'Edit flow to-edit' });
    await expect.poll(() => form.getByLabel('Flow name').inputValue()).toBe('to-edit');
    expect(await form.getByLabel('Flow group').inputValue()).toBe('daily');
    expect(JSON.parse(await form.getByLabel('Steps (a JSON array)').inputValue())).toEqual([{ type: 'wait', ms: 10 }]);
    expect(await form.getByLabel('Values (name=value, one a line)').inputValue()).toBe('greeting=hello');
    // The protected value shows by its name alone, and the page never holds its secret.
    expect(await form.getByLabel(/^Protected values/).inputValue()).toBe('api_key');
    expect(await page.content()).not.toContain('CONSOLE-EDIT-SECRET');
    await expectAccessible(page);

    await form.getByLabel('Flow name').fill('edited');
    await form.getByLabel('Steps (a JSON array)').fill('[{"type": "hover"}]');
    await form.getByRole('button', { name: 'Save flow' }).click();
    // A step the API refuses leaves the flow as it was and says why.
    await expect.poll(() => flows.getByRole('alert').first().textContent()).toContain('request.invalid');
    expect((await api(`/api/v1/automation/flows/${id}`)).json.name).toBe('to-edit');
    await form
      .getByLabel('Steps (a JSON array)')
      .fill('[{"type": "wait", "ms": 20}, {"type": "press", "key": "Enter"}]');
    await form.getByLabel('Values (name=value, one a line)').fill('greeting=hi\nextra');
    await form.getByRole('button', { name: 'Save flow' }).click();
    await expect.poll(() => flows.getByRole('status').last().textContent()).toBe('Saved flow edited.');
    await expect.poll(() => flows.getByRole('row').filter({ hasText: 'edited' }).textContent()).toContain('daily');
    expect((await api(`/api/v1/automation/flows/${id}`)).json).toMatchObject({
      name: 'edited',
      group: 'daily',
      steps: [
        { type: 'wait', ms: 20 },
        { type: 'press', key: 'Enter' },
      ],
      values: [
        { name: 'greeting', value: 'hi', protected: false },
        { name: 'extra', value: null, protected: false },
        { name: 'api_key', value: null, protected: true, value_set: true },
      ],
    });
    await expectAccessible(page);
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await page.context().close();

    // A token that may read flows but not write them is offered no edit.
    const reader = (
      await api('/api/v1/tokens', { method: 'POST', body: { name: 'flow reader', scopes: ['runtime:control'] } })
    ).json.token;
    const readOnly = await web.open();
    await signIn(readOnly.page, reader);
    await goTo(readOnly.page, 'Automation');
    const listed = readOnly.page.getByRole('region', { name: 'Flows' });
    await expect.poll(() => listed.textContent()).toContain('edited');
    expect(await listed.getByRole('button', { name: /Edit flow|Delete flow/ }).count()).toBe(0);
    expect(readOnly.errors.filter((e) => !e.includes('status of 403'))).toEqual([]);
    await readOnly.page.context().close();
  });

  it('edits a global, shows a revision conflict with the newer value, and saves over it on retry', async () => {
    expect(
      (
        await api('/api/v1/automation/globals/GREETING', {
          method: 'PUT',
          body: { value: 'one', expected_revision: 0 },
        })
      ).status,
    ).toBe(200);
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Automation');
    await page.getByRole('button', { name: 'Edit GREETING' }).click();
    const value = page.getByLabel(/^Value of GREETING/);
    await expect.poll(() => value.inputValue()).toBe('one');
    await value.fill('mine');
    // Someone else saves first.
    expect(
      (
        await api('/api/v1/automation/globals/GREETING', {
          method: 'PUT',
          body: { value: 'theirs', expected_revision: 1 },
        })
      ).status,
    ).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByRole('alert', { name: 'Revision conflict' });
    await expect.poll(() => conflict.textContent()).toContain('revision 2');
    expect(await conflict.locator('pre').textContent()).toBe('theirs');
    await expectAccessible(page);
    await conflict.getByRole('button', { name: 'Save mine over revision 2' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Globals' }).getByRole('status').last().textContent())
      .toBe('Saved GREETING at revision 3.');
    expect((await api('/api/v1/automation/globals/GREETING')).json).toEqual({ value: 'mine', revision: 3 });
    expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
    await page.context().close();
  });

  it('lists flows, shares one (code shown once), previews and imports the code, uploads and downloads a file, shows the synchronizer', async () => {
    expect(
      (await api('/api/v1/automation/flows', { method: 'POST', body: { name: 'flow-a', steps: [] } })).status,
    ).toBe(201);
    const { page, errors } = await web.open('/', ['clipboard-read', 'clipboard-write']);
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Automation');
    const flows = page.getByRole('region', { name: 'Flows' });
    await expect.poll(() => flows.textContent()).toContain('flow-a');

    const shares = page.getByRole('region', { name: 'Shares' });
    await shares.getByRole('checkbox', { name: 'flow-a' }).check();
    await shares.getByLabel('Share name').fill('for a friend');
    await shares.getByRole('button', { name: 'Create share' }).click();
    const code = (await page
      .getByRole('region', { name: 'Share code of “for a friend”' })
      .locator('[data-secret]')
      .textContent())!.trim();
    await shares.getByLabel('Share code', { exact: true }).fill(code);
    await shares.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Share preview' });
    await expect.poll(() => preview.textContent()).toContain('flow-a');
    await expectAccessible(page);
    await preview.getByRole('button', { name: 'Import all as new flows' }).click();
    await expect.poll(() => shares.getByRole('status').last().textContent()).toBe('Imported flow-a.');
    await expect.poll(() => flows.getByRole('row').filter({ hasText: 'flow-a' }).count()).toBe(2);

    const files = page.getByRole('region', { name: 'Files' });
    await files
      .getByLabel('File to upload')
      .setInputFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, console\n') });
    await files.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => files.getByRole('status').last().textContent()).toBe('Uploaded hello.txt.');
    const download = page.waitForEvent('download');
    await files.getByRole('button', { name: 'Download hello.txt' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('hello.txt');
    expect(readFileSync((await file.path())!, 'utf8')).toBe('hello, console\n');

    await expect.poll(() => page.getByRole('region', { name: 'Synchronizer' }).textContent()).toContain('Runningno');
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('runs a flow on a chosen profile and watches its job until it succeeds', async () => {
    const flow = await api('/api/v1/automation/flows', {
      method: 'POST',
      body: { name: 'console-run', steps: [{ type: 'wait', ms: 1500 }] },
    });
    const profile = await api('/api/v1/profiles', { method: 'POST', body: { name: 'console-runner' } });
    expect([flow.status, profile.status]).toEqual([201, 201]);
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Automation');
    const runs = page.getByRole('region', { name: 'Flow runs' });
    await runs.getByRole('combobox').selectOption({ label: 'console-run' });
    await runs.getByRole('checkbox', { name: 'console-runner' }).check();
    await runs.getByRole('checkbox', { name: 'Start browsers without a window' }).check();
    await runs.getByRole('checkbox', { name: 'Stop the browsers it starts when done' }).check();
    await runs.getByRole('button', { name: 'Run flow' }).click();
    const watched = page.getByRole('region', { name: 'Watched job' });
    await expect.poll(() => watched.getByRole('status').textContent(), { timeout: 60_000 }).toContain('running');
    await expect.poll(() => watched.textContent(), { timeout: 60_000 }).toContain('1 of 1 (wait)');
    await expectAccessible(page);
    await expect.poll(() => watched.getByRole('status').textContent(), { timeout: 60_000 }).toContain('succeeded');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('starts the synchronizer from chosen profiles, shows its counters, takes a follower out and stops it with the browsers', async () => {
    const ids: string[] = [];
    for (const name of ['sync-source', 'sync-one', 'sync-two'])
      ids.push((await api('/api/v1/profiles', { method: 'POST', body: { name } })).json.id);
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Automation');
    const sync = page.getByRole('region', { name: 'Synchronizer' });
    await sync.getByLabel('Source profile').selectOption(ids[0]!);
    await sync.getByRole('group', { name: 'Followers' }).getByLabel('sync-one').check();
    await sync.getByRole('group', { name: 'Followers' }).getByLabel('sync-two').check();
    await sync.getByLabel('Mode').selectOption('coordinates');
    await sync.getByLabel(/without a window/).check();
    await sync.getByRole('button', { name: 'Start the synchronizer' }).click();
    await expect.poll(() => sync.textContent(), { timeout: 60_000 }).toContain('Runningyes');
    expect(await sync.textContent()).toContain('Sourcesync-source');
    await expect.poll(() => sync.getByRole('row').count()).toBe(3);
    await expectAccessible(page);
    await sync.getByRole('button', { name: 'Remove sync-two' }).click();
    await expect.poll(() => sync.getByRole('row').count()).toBe(2);
    await sync.getByLabel('Also stop the browsers').check();
    await sync.getByRole('button', { name: 'Stop the synchronizer' }).click();
    await expect.poll(() => sync.textContent(), { timeout: 30_000 }).toContain('Runningno');
    const runs = (await api('/api/v1/runs')).json.items as { profile_id: string }[];
    expect(runs.map((run) => run.profile_id)).toEqual([ids[2]]);
    await api(`/api/v1/profiles/${ids[2]}/stop`, { method: 'POST', body: {} });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
