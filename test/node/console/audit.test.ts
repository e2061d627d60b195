import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lpaRunner } from '../cli-run';
import { BUN, raw, startService } from '../service';
import { expectAccessible, goTo, noChromium, signIn, useConsole } from './browser';

/** Edits one stored audit entry in the Bun runtime's SQLite file, as someone with the disk could. */
function tamper(dataRoot: string, seq: number): void {
  // The file and the seq as arguments (Bun.argv: bun, -e's name, then these two).
  const script =
    "const { Database } = require('bun:sqlite'); const [file, seq] = Bun.argv.slice(-2); const db = new Database(file); db.run(\"UPDATE audit_log SET actor_label = 'forged' WHERE seq = ?\", [Number(seq)]); db.close();";
  execFileSync(BUN, ['-e', script, join(dataRoot, 'store', 'lpa-bun.sqlite'), String(seq)]);
}

// On Bun: the console is served by every runtime, and Bun's store is one SQLite file a test can edit.
describe.skipIf(noChromium)('the console: Audit', { timeout: 120_000 }, () => {
  const web = useConsole('bun');
  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    raw(web.svc.current.port, path, {
      method: init.method,
      headers: { ...web.svc.auth(), 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  it('lists, pages, filters, verifies, shows the checkpoint, exports and charts the log', async () => {
    for (let i = 0; i < 55; i++) await api('/api/v1/tokens', { method: 'POST', body: { name: `t${i}`, scopes: [] } });
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Audit');
    const entries = page.getByRole('region', { name: 'Entries', exact: true });
    await expect.poll(() => entries.getByRole('row').count()).toBe(51);
    await entries.getByRole('button', { name: 'Load older entries' }).click();
    await expect.poll(async () => (await entries.getByRole('row').count()) > 51).toBe(true);

    await page.getByLabel('Result').selectOption('denied');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => entries.textContent()).toContain('No entry matches.');
    await page.getByLabel('Result').selectOption('ok');
    await page.getByLabel('action').fill('tokens.create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => entries.getByRole('row').count()).toBe(51);

    await page.getByRole('button', { name: 'Verify' }).click();
    const verdict = page.getByRole('status', { name: 'Verification result' });
    await expect.poll(() => verdict.textContent()).toMatch(/^ok: the chain is intact/);

    const checkpoint = (await api('/api/v1/audit/checkpoint')).json;
    await expect
      .poll(() => page.getByRole('region', { name: 'Signed checkpoint' }).textContent())
      .toContain(checkpoint.key_id);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.jsonl$/);
    const lines = readFileSync((await file.path())!, 'utf8')
      .trim()
      .split('\n');
    // 55 entries, then the head the store signs over the file (docs/audit-format.md#the-signed-head).
    expect(lines).toHaveLength(56);
    expect(lines.slice(0, -1).every((line) => JSON.parse(line).action === 'tokens.create')).toBe(true);
    expect(JSON.parse(lines.at(-1)!).head).toMatchObject({ seq: expect.any(Number), signature: expect.any(String) });
    await expect
      .poll(() => page.getByRole('region', { name: 'Export' }).textContent())
      .toContain('Exported 55 entries');

    const chart = page.getByRole('region', { name: 'Entries per day' });
    await chart.getByText('Days with entries (1)').click();
    const today = new Date().toISOString().slice(0, 10);
    await expect
      .poll(() => chart.getByRole('row', { name: new RegExp(today) }).textContent())
      .toMatch(new RegExp(`^${today}\\d+00$`));
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("opens an entry's details; downloads the public key and a checkpoint that lpa audit verify-file takes with the export; changes the retention; shows the team link", async () => {
    const newest = (await api('/api/v1/audit?limit=1')).json.items[0];
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Audit');
    const entries = page.getByRole('region', { name: 'Entries', exact: true });
    await entries.getByRole('button', { name: `Details of entry ${newest.seq}` }).click();
    const opened = entries.getByRole('region', { name: `Entry ${newest.seq}` });
    expect(await opened.textContent()).toContain(newest.id);
    expect(newest.details).not.toBeNull();
    expect(JSON.parse((await opened.locator('[data-details]').textContent())!)).toEqual(newest.details);
    await expectAccessible(page);
    await opened.getByRole('button', { name: `Close entry ${newest.seq}` }).click();
    await expect.poll(() => opened.count()).toBe(0);

    const work = mkdtempSync(join(tmpdir(), 'lpa-console-audit-'));
    const save = async (button: string) => {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: button }).click();
      const file = await download;
      const path = join(work, file.suggestedFilename());
      await file.saveAs(path);
      return path;
    };
    const exported = await save('Download export');
    await page.getByRole('button', { name: 'Sign a new checkpoint' }).click();
    await expect.poll(() => page.locator('progress').count()).toBe(0);
    const checkpoint = await save('Download checkpoint');
    const key = await save('Download the public key');
    const { key_id } = (await api('/api/v1/audit/public-key')).json;
    expect(await page.getByRole('region', { name: 'Public key' }).textContent()).toContain(key_id);
    const proven = await lpaRunner(() => web.svc.current)([
      'audit',
      'verify-file',
      exported,
      '--public-key',
      key,
      '--checkpoint',
      checkpoint,
      '--json',
    ]);
    expect([proven.code, JSON.parse(proven.stdout)]).toMatchObject([0, { ok: true, signed_head: true }]);

    const retention = page.getByRole('region', { name: 'Retention' });
    await retention.getByLabel('Audit entries (days)').fill('400');
    await retention.getByRole('button', { name: 'Save audit retention' }).click();
    await expect.poll(async () => (await api('/api/v1/settings/audit')).json.retention_days).toBe(400);

    // This machine joined no team: the part says so and offers no witness check (test/node/console/team.test.ts has one joined).
    const team = page.getByRole('region', { name: 'Team' });
    await expect.poll(() => team.textContent()).toContain('has joined no team');
    expect(await team.getByRole('button').count()).toBe(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await page.context().close();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the exact first bad sequence number of a tampered store', async () => {
    const { items } = (await api('/api/v1/audit?action=tokens.create&limit=10')).json as { items: { seq: number }[] };
    const bad = items[7]!.seq;
    const { dataRoot } = web.svc.current;
    await web.svc.current.stop();
    tamper(dataRoot, bad);
    web.svc.current = await startService('bun', dataRoot);

    const { page } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Audit');
    await page.getByRole('button', { name: 'Verify' }).click();
    const verdict = page.getByRole('status', { name: 'Verification result' });
    await verdict.waitFor();
    expect(await verdict.locator('[data-first-bad-seq]').textContent()).toBe(String(bad));
    expect(await verdict.textContent()).toContain('Broken.');
    await expectAccessible(page);
    await page.context().close();
  });
});
