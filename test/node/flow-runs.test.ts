import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowJob } from '../../storage/flow-runs/schema';
import { ensureChromium } from './chromium';
import { lpaRunner } from './cli-run';
import { RUNTIMES, type RunningService, startService } from './service';
import { laterApiClient } from './api-client';

const browser = ensureChromium();

const PASSWORD = 'Pw-of-the-shop-7f3a9c';
const TOTP_SECRET = new Secret({ size: 20 }).base32;
const totp = new TOTP({ secret: Secret.fromBase32(TOTP_SECRET) });

/**
 * A shop to log in to: a form of user, password and 2FA code, checked against the account's password
 * and its TOTP secret (a code of the current period or the one before). What it received is kept,
 * to check that what reached the page never reached LPA's records.
 */
function shop(): Promise<{ server: Server; url: string; logins: { user: string; ok: boolean; code: string }[] }> {
  const logins: { user: string; ok: boolean; code: string }[] = [];
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.method === 'POST' && req.url === '/login') {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const code = form.get('code') ?? '';
        const ok =
          form.get('user') === 'alice' &&
          form.get('password') === PASSWORD &&
          totp.validate({ token: code, window: 1 }) !== null;
        logins.push({ user: form.get('user') ?? '', ok, code });
        res.end(
          ok
            ? '<!doctype html><title>account</title><p id="balance" data-value="42.17">Balance: 42.17</p>'
            : '<!doctype html><title>refused</title><p id="error">wrong</p>',
        );
      });
      return;
    }
    if (req.url === '/form') {
      res.end(`<!doctype html><title>form</title>
        <select id="pick"><option value="a">A</option><option value="b">B</option></select><p id="chosen"></p>
        <input id="q"><p id="out"></p><div style="height: 5000px"></div><p id="bottom">bottom</p>
        <script>
          document.getElementById('pick').onchange = (e) => (document.getElementById('chosen').textContent = e.target.value);
          document.getElementById('q').onkeydown = (e) => {
            if (e.key === 'Enter') document.getElementById('out').textContent = 'entered:' + e.target.value;
          };
          addEventListener('scroll', () => (document.title = 'scrolled'));
        </script>`);
      return;
    }
    res.end(`<!doctype html><title>login</title>
      <form method="post" action="/login">
        <input id="user" name="user"><input id="password" name="password" type="password">
        <input id="code" name="code"><button id="go" type="submit">Sign in</button>
      </form>`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logins }),
    ),
  );
}

describe.skipIf('skip' in browser).each(RUNTIMES)(
  'flow runs on real browsers on %s',
  { timeout: 180_000 },
  (runtime) => {
    let service: RunningService;
    let site: Awaited<ReturnType<typeof shop>>;
    const api = laterApiClient(() => service);
    const newProfile = async () =>
      (await api('/api/v1/profiles', { method: 'POST', body: { name: `flow-${crypto.randomUUID().slice(0, 8)}` } }))
        .json.id as string;
    const newFlow = async (body: Record<string, unknown>) =>
      (await api('/api/v1/automation/flows', { method: 'POST', body })).json.id as string;
    const run = (flowId: string, body: Record<string, unknown>) =>
      api(`/api/v1/automation/flows/${flowId}/runs`, { method: 'POST', body: { headless: true, ...body } });
    const jobUntil = async (id: string, done: (job: FlowJob) => boolean, ms = 90_000): Promise<FlowJob> => {
      const end = Date.now() + ms;
      for (;;) {
        const job = (await api(`/api/v1/automation/runs/${id}`)).json as FlowJob;
        if (done(job)) return job;
        if (Date.now() > end) throw new Error(`job ${id} still ${JSON.stringify(job)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const neverRan = async (profileId: string) => (await api(`/api/v1/profiles/${profileId}/run`)).status === 404;

    beforeAll(async () => {
      site = await shop();
      service = await startService(runtime, undefined, { LPA_BROWSER: (browser as { path: string }).path });
    });
    afterAll(async () => {
      await service?.stop('SIGTERM');
      site?.server.close();
    });

    it('logs in with an account password and its TOTP code, extracts into a global, screenshots into the files; no secret is recorded', async () => {
      const profile = await newProfile();
      const account = (
        await api(`/api/v1/profiles/${profile}/accounts`, {
          method: 'POST',
          body: { platform_url: site.url, username: 'alice', password: PASSWORD, totp_secret: TOTP_SECRET },
        })
      ).json.id as string;
      const base = await newFlow({
        name: 'open the shop',
        steps: [{ type: 'open_url', url: '${site}/login' }],
        values: [{ name: 'site', value: site.url }],
      });
      const flow = await newFlow({
        name: 'log in',
        dependencies: [base],
        steps: [
          { type: 'wait', selector: '#user', timeout_ms: 10_000 },
          { type: 'type', selector: '#user', text: '${user}' },
          { type: 'fill_password', selector: '#password', profile_account_id: account },
          { type: 'fill_totp', selector: '#code', profile_account_id: account },
          { type: 'click', selector: '#go' },
          { type: 'wait', selector: '#balance', timeout_ms: 10_000 },
          { type: 'extract', selector: '#balance', attribute: 'data-value', global: 'shop_balance' },
          { type: 'wait', min_ms: 10, max_ms: 30 },
          { type: 'screenshot', file: 'shop-${user}.png' },
        ],
        values: [{ name: 'user', value: 'nobody', protected: true }],
      });

      const started = await run(flow, { profile_ids: [profile], values: { user: 'alice' }, stop_after: true });
      expect(started.status).toBe(202);
      expect(started.json).toMatchObject({ flow_id: flow, state: 'running', step_count: 10, stop_after: true });
      const job = await jobUntil(started.json.id, (j) => j.state !== 'running');
      expect(job).toMatchObject({ state: 'succeeded', ended_at: expect.any(Number) });
      expect(job.profiles).toEqual([
        expect.objectContaining({
          profile_id: profile,
          state: 'succeeded',
          step: 9,
          step_type: 'screenshot',
          error: null,
          started_browser: true,
        }),
      ]);
      expect(site.logins).toEqual([{ user: 'alice', ok: true, code: expect.stringMatching(/^\d{6}$/) }]);

      expect((await api('/api/v1/automation/globals/shop_balance')).json).toMatchObject({
        value: '42.17',
        revision: 1,
      });
      const files = (await api('/api/v1/automation/files')).json.items.map((f: { name: string }) => f.name);
      expect(files).toContain('shop-alice.png');
      const png = Buffer.from(
        (await api('/api/v1/automation/files/content?name=shop-alice.png')).json.base64,
        'base64',
      );
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      // stop_after: the browser the job started is stopped once its run ended.
      expect((await api(`/api/v1/profiles/${profile}/run`)).json.state).toBe('stopped');
      expect((await api('/api/v1/automation/runs')).json.items.map((j: FlowJob) => j.id)).toContain(job.id);

      const audit = (await api('/api/v1/audit?limit=1000')).text;
      const actions = (await api('/api/v1/audit?limit=1000')).json.items.map((e: { action: string }) => e.action);
      for (const action of [
        'flow_runs.start',
        'flow_runs.profile_end',
        'runs.start',
        'profile_accounts.password_read',
        'profile_accounts.totp_read',
      ])
        expect(actions).toContain(action);
      const jobsLog = readdirSync(join(service.dataRoot, 'logs', 'jobs'))
        .map((file) => readFileSync(join(service.dataRoot, 'logs', 'jobs', file), 'utf8'))
        .join('\n');
      expect(jobsLog).toContain(job.id);
      const code = new RegExp(`(?<![0-9])${site.logins[0]!.code}(?![0-9])`);
      for (const [where, text] of [
        ['the job', JSON.stringify(await api(`/api/v1/automation/runs/${job.id}`))],
        ['the jobs log', jobsLog],
        ['the audit', audit],
        ['the service output', service.output()],
      ] as const) {
        expect(text, where).not.toContain(PASSWORD);
        expect(text, where).not.toMatch(code);
      }
    });

    it('selects, types, presses, scrolls, opens, switches and closes tabs, and runs another flow in between', async () => {
      const profile = await newProfile();
      const title = (global: string) => ({ type: 'extract', selector: 'title', global });
      const sub = await newFlow({ name: 'the title', steps: [title('after_close')] });
      const flow = await newFlow({
        name: 'every page step',
        steps: [
          { type: 'open_url', url: `${site.url}/form` },
          { type: 'select', selector: '#pick', value: 'b' },
          { type: 'type', selector: '#q', text: 'hello' },
          { type: 'press', key: 'Enter' },
          { type: 'extract', selector: '#out', global: 'out_text' },
          { type: 'extract', selector: '#chosen', global: 'chosen' },
          { type: 'scroll', y: 3000 },
          { type: 'scroll', selector: '#bottom' },
          title('after_scroll'),
          { type: 'new_tab', url: `${site.url}/login` },
          title('new_tab'),
          { type: 'switch_tab', index: 0 },
          title('switched'),
          { type: 'close_tab' },
          { type: 'run_flow', flow_id: sub },
        ],
      });
      const job = await jobUntil(
        (await run(flow, { profile_ids: [profile], stop_after: true })).json.id,
        (j) => j.state !== 'running',
      );
      expect(job.profiles[0]).toMatchObject({ state: 'succeeded', error: null });
      expect(job.step_count).toBe(15);
      const globals: Record<string, string> = {};
      for (const name of ['out_text', 'chosen', 'after_scroll', 'new_tab', 'switched', 'after_close'])
        globals[name] = (await api(`/api/v1/automation/globals/${name}`)).json.value;
      expect(globals).toEqual({
        out_text: 'entered:hello',
        chosen: 'b',
        after_scroll: 'scrolled',
        new_tab: 'login',
        switched: 'scrolled',
        after_close: 'login',
      });
    });

    it('refuses missing values and a cycle before any browser starts', async () => {
      const profile = await newProfile();
      const needs = await newFlow({
        name: 'needs values',
        steps: [
          { type: 'open_url', url: '${start_url}' },
          { type: 'type', selector: '#q', text: '${query} ${shop_balance}' },
        ],
        values: [{ name: 'query', protected: true }],
      });
      const missing = await run(needs, { profile_ids: [profile] });
      expect(missing.status).toBe(400);
      expect(missing.json.error).toMatchObject({
        code: 'flows.missing_values',
        details: {
          missing: [
            { flow_id: needs, name: 'start_url' },
            { flow_id: needs, name: 'query' },
          ],
        },
      });

      const loop = await newFlow({ name: 'loops', steps: [{ type: 'run_flow', flow_id: '${next}' }] });
      const caller = await newFlow({ name: 'calls', steps: [{ type: 'run_flow', flow_id: loop }] });
      const cycle = await run(caller, { profile_ids: [profile], values: { next: caller } });
      expect(cycle.status).toBe(400);
      expect(cycle.json.error).toMatchObject({
        code: 'flows.dependency_cycle',
        details: { cycle: [caller, loop, caller] },
      });
      const unknown = await run(caller, { profile_ids: [profile], values: { next: 'no-such-flow' } });
      expect(unknown.json.error).toMatchObject({ code: 'flows.unknown', details: { ids: ['no-such-flow'] } });
      expect(await neverRan(profile)).toBe(true);
    });

    it('cancels a long flow: the wait is cut short and the profile is cancelled', async () => {
      const profile = await newProfile();
      const flow = await newFlow({
        name: 'long',
        steps: [
          { type: 'open_url', url: 'about:blank' },
          { type: 'wait', ms: 600_000 },
          { type: 'click', selector: '#never' },
        ],
      });
      const started = await run(flow, { profile_ids: [profile] });
      expect(started.status).toBe(202);
      await jobUntil(started.json.id, (j) => j.profiles[0]!.step === 1);
      expect((await run(flow, { profile_ids: [profile] })).json.error).toMatchObject({
        code: 'flows.profile_busy',
        details: { profile_ids: [profile] },
      });
      const asked = Date.now();
      const cancel = await api(`/api/v1/automation/runs/${started.json.id}/cancel`, { method: 'POST' });
      expect(cancel.status).toBe(200);
      expect(cancel.json.cancel_requested).toBe(true);
      const job = await jobUntil(started.json.id, (j) => j.state !== 'running', 20_000);
      expect(Date.now() - asked).toBeLessThan(15_000);
      expect(job.state).toBe('cancelled');
      expect(job.profiles[0]).toMatchObject({ state: 'cancelled', step: 1, step_type: 'wait' });
      expect((await api(`/api/v1/automation/runs/${job.id}/cancel`, { method: 'POST' })).json.error.code).toBe(
        'flows.job_ended',
      );
      // Not stop_after: the browser the job started runs on.
      expect((await api(`/api/v1/profiles/${profile}/run`)).json.state).toBe('running');
      await api(`/api/v1/profiles/${profile}/stop`, { method: 'POST' });
    });

    it('fails a step with its index and the reason: an account of another profile, an element that never comes', async () => {
      const [mine, other] = [await newProfile(), await newProfile()];
      const account = (
        await api(`/api/v1/profiles/${other}/accounts`, {
          method: 'POST',
          body: { platform_url: site.url, password: PASSWORD },
        })
      ).json.id as string;
      const flow = await newFlow({
        name: 'not mine',
        steps: [
          { type: 'open_url', url: `${site.url}/login` },
          { type: 'fill_password', selector: '#password', profile_account_id: account },
        ],
      });
      const job = await jobUntil(
        (await run(flow, { profile_ids: [mine], stop_after: true })).json.id,
        (j) => j.state !== 'running',
      );
      expect(job.state).toBe('failed');
      expect(job.profiles[0]).toMatchObject({
        state: 'failed',
        step: 1,
        error: { code: 'resource.not_found', step: 1, step_type: 'fill_password', flow_id: flow },
      });
      const missingElement = await newFlow({
        name: 'no element',
        steps: [
          { type: 'open_url', url: `${site.url}/login` },
          { type: 'wait', selector: '#nothing-here', timeout_ms: 500 },
        ],
      });
      const failed = await jobUntil(
        (await run(missingElement, { profile_ids: [mine], stop_after: true })).json.id,
        (j) => j.state !== 'running',
      );
      expect(failed.profiles[0]!.error).toMatchObject({ code: 'flows.step_failed', step: 1, step_type: 'wait' });
      expect(failed.profiles[0]!.error!.message).toMatch(/timeout|exceeded/i);
    });

    it('runs from the CLI: lpa flows run --wait prints the job and exits 1 unless it succeeded', async () => {
      const lpa = lpaRunner(() => service);
      const profile = await newProfile();
      const quick = await newFlow({ name: 'quick', steps: [{ type: 'open_url', url: '${page}' }] });
      const ok = await lpa([
        'flows',
        'run',
        quick,
        '--profile',
        profile,
        '--value',
        `page=${site.url}/login`,
        '--headless',
        '--stop-after',
        '--wait',
        '--json',
      ]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({
        state: 'succeeded',
        profiles: [{ profile_id: profile, state: 'succeeded' }],
      });
      const broken = await newFlow({ name: 'broken', steps: [{ type: 'click', selector: '${missing}' }] });
      const refused = await lpa(['flows', 'run', broken, '--profile', profile, '--wait']);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('flows.missing_values');
      const failing = await newFlow({
        name: 'failing',
        steps: [{ type: 'wait', selector: '#never', timeout_ms: 300 }],
      });
      const failed = await lpa(['flows', 'run', failing, '--profile', profile, '--headless', '--stop-after', '--wait']);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/failed[\s\S]*flows\.step_failed/);
    });

    it('records a job whose service was killed as failed, with the reason, once the service is back', async () => {
      const profile = await newProfile();
      const flow = await newFlow({ name: 'outlived', steps: [{ type: 'wait', ms: 600_000 }] });
      const started = await run(flow, { profile_ids: [profile] });
      await jobUntil(started.json.id, (j) => j.profiles[0]!.step === 0);
      await service.stop('SIGKILL');
      service = await startService(runtime, service.dataRoot, { LPA_BROWSER: (browser as { path: string }).path });
      const job = (await api(`/api/v1/automation/runs/${started.json.id}`)).json as FlowJob;
      expect(job).toMatchObject({
        state: 'failed',
        error: 'the service stopped while the job ran',
        ended_at: expect.any(Number),
      });
      expect(job.profiles[0]).toMatchObject({ state: 'failed', step: 0, error: { code: 'flows.service_restarted' } });
      // The profile is free for the next job.
      const next = await run(await newFlow({ name: 'after', steps: [{ type: 'wait', ms: 1 }] }), {
        profile_ids: [profile],
        stop_after: true,
      });
      expect((await jobUntil(next.json.id, (j) => j.state !== 'running')).state).toBe('succeeded');
    });
  },
);
