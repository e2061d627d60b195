import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Run, RunBatchResults } from '../../src/shared/schemas/run';
import { ensureChromium } from './chromium';
import { lpaRunner } from './cli-run';
import { isAlive, processTree } from './process-tree';
import { type RunningService, startService } from './service';
import { laterApiClient } from './api-client';

const browser = ensureChromium();

describe.skipIf('skip' in browser)('runs by the batch, stop-all and a deleted profile', { timeout: 120_000 }, () => {
  let service: RunningService;
  const api = laterApiClient(() => service);
  const newProfile = async () =>
    (await api('/api/v1/profiles', { method: 'POST', body: { name: `batch-${crypto.randomUUID().slice(0, 8)}` } })).json
      .id as string;

  const lpa = lpaRunner(() => service);

  beforeAll(async () => {
    service = await startService('workerd', undefined, { LPA_BROWSER: (browser as { path: string }).path });
  });
  afterAll(async () => {
    await service?.stop('SIGTERM');
  });

  it('starts a batch with one bad id: each item alone, in the order asked; a PNG of one; stop-all stops the rest', async () => {
    const ids = [await newProfile(), 'no-such-profile', await newProfile(), await newProfile()];
    const started = await api('/api/v1/profiles/batch/start', { method: 'POST', body: { ids, headless: true } });
    expect(started.status).toBe(200);
    const { results } = started.json as RunBatchResults;
    expect(results.map((result) => [result.id, result.ok, result.error?.code ?? null])).toEqual([
      [ids[0], true, null],
      [ids[1], false, 'resource.not_found'],
      [ids[2], true, null],
      [ids[3], true, null],
    ]);
    const runs = results.flatMap((result) => (result.run ? [result.run] : []));
    const running = (await api('/api/v1/profiles?running=true&limit=1000')).json.items.map((p: { id: string }) => p.id);
    expect(running.sort()).toEqual([ids[0], ids[2], ids[3]].sort());
    expect((await api(`/api/v1/profiles/${ids[0]}`)).json.running).toBe(true);
    const idle = (await api('/api/v1/profiles?running=false&limit=1000')).json.items.map((p: { id: string }) => p.id);
    expect(idle.filter((id: string) => ids.includes(id))).toEqual([]);
    const shot = await api(`/api/v1/profiles/${ids[0]}/screenshot`);
    expect(shot.json.run_id).toBe(runs[0]!.id);
    expect(Buffer.from(shot.json.png_base64, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(runs.every((run) => run.state === 'running' && run.ws_endpoint !== null)).toBe(true);

    const again = await api('/api/v1/profiles/batch/start', {
      method: 'POST',
      body: { ids: [ids[0]], headless: true },
    });
    expect(again.json.results[0]).toMatchObject({ ok: false, error: { code: 'run.active' } });

    const stopped = await api('/api/v1/profiles/batch/stop', { method: 'POST', body: { ids: [ids[0], ids[1]] } });
    expect(
      stopped.json.results.map((result: RunBatchResults['results'][number]) => result.run?.state ?? result.error?.code),
    ).toEqual(['stopped', 'resource.not_found']);

    const all = await api('/api/v1/runs/stop-all', { method: 'POST' });
    expect(all.status).toBe(200);
    expect((all.json as RunBatchResults).results.map((result) => result.id).sort()).toEqual([ids[2], ids[3]].sort());
    expect((await api('/api/v1/runs')).json.items).toEqual([]);
    for (const run of runs) expect(isAlive(run.pid!), run.id).toBe(false);

    const audit = (await api('/api/v1/audit?category=startup&limit=100')).json.items as {
      action: string;
      result: string;
    }[];
    expect(audit.some((entry) => entry.action === 'runs.start' && entry.result !== 'ok')).toBe(true);
  });

  it('answers a screenshot taken while a stop closes the browser as run.not_running, never a failure of its own', async () => {
    const id = await newProfile();
    const shots: string[] = [];
    // Each round races screenshots against a stop (asked to close, then killed): some are taken
    // before it, the rest find the browser closing or gone under them.
    for (const force of [false, true, false, true]) {
      await api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true } });
      const taken = [0, 15, 30, 45].map((after) =>
        new Promise((resolve) => setTimeout(resolve, after)).then(() => api(`/api/v1/profiles/${id}/screenshot`)),
      );
      const stop = new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        api(`/api/v1/profiles/${id}/stop`, { method: 'POST', body: { force } }),
      );
      for (const shot of await Promise.all(taken)) shots.push(`${shot.status} ${shot.json.error?.code ?? 'png'}`);
      expect((await stop).status).toBe(200);
    }
    expect(shots.filter((shot) => shot !== '200 png' && shot !== '409 run.not_running')).toEqual([]);
  });

  it("deletes a running profile's browser with it: the browser killed, its folder gone", async () => {
    const id = await newProfile();
    const run = (await api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true } })).json as Run;
    const folder = join(service.dataRoot, 'browsers', id);
    expect(existsSync(folder)).toBe(true);
    // Its helpers (zygotes, renderers, the GPU and network services) go with it, not only the main process.
    const helpers = processTree(run.pid!).slice(1);
    expect(helpers.length).toBeGreaterThan(0);
    expect((await api(`/api/v1/profiles/${id}`, { method: 'DELETE' })).status).toBe(204);
    // SIGKILL reaches the group at once, but a process dies when it next runs: on a busy machine a
    // helper was seen alive a moment after the answer.
    await vi.waitFor(() => expect([run.pid!, ...helpers].filter(isAlive)).toEqual([]), { timeout: 2_000 });
    expect(existsSync(folder)).toBe(false);
    expect((await api('/api/v1/runs')).json.items).toEqual([]);
  });

  it('is driven from the CLI: lpa profiles start prints the endpoint, lpa runs lists it, lpa profiles stop stops it', async () => {
    const id = await newProfile();
    const started = await lpa(['profiles', 'start', id, '--headless']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout.trim()).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/[A-Za-z0-9_-]{43}\/browser$/);
    const listed = JSON.parse((await lpa(['runs', '--json'])).stdout) as { items: Run[] };
    expect(listed.items.map((run) => run.profile_id)).toEqual([id]);
    const stopped = JSON.parse((await lpa(['profiles', 'stop', id, '--json'])).stdout) as Run;
    expect(stopped).toMatchObject({ profile_id: id, state: 'stopped' });
    expect((await lpa(['profiles', 'stop', id])).code).not.toBe(0);
  });

  it('closes its browsers cleanly when it is stopped, and its store records them as stopped', async () => {
    const id = await newProfile();
    const run = (await api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true } })).json as Run;
    const { dataRoot } = service;
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(isAlive(run.pid!)).toBe(false);
    service = await startService('workerd', dataRoot, { LPA_BROWSER: (browser as { path: string }).path });
    expect((await api(`/api/v1/profiles/${id}/run`)).json).toMatchObject({
      id: run.id,
      state: 'stopped',
      end_reason: 'stopped',
    });
  });
});
