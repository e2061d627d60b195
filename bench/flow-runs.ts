/**
 * A flow of 20 steps run on 10 profiles at once (`npm run bench -- --runs`, docs/benchmarks.md#runs):
 * the job's wall time and `GET /status` meanwhile, against the same 20 steps driven directly with
 * puppeteer-core on as many browsers launched directly with LPA's switches.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, KeyInput, Page } from 'puppeteer-core';
import { type FlowStep, resolveStep } from '../src/shared/schemas/flow-steps';
import type { FlowJob } from '../storage/flow-runs/schema';
import { call, ok } from './api';
import { type Bench, closeDirect, connect, launchDirect, log, ms, newProfile, times, wait } from './browsers';
import { percentiles, sampleWhile } from './load';

/** Profiles in the job. */
const PROFILES = 10;
/**
 * How many of them a job runs at once: LPA's own bound (PROFILES_AT_ONCE in handlers/flow-job.ts),
 * which the direct reference keeps, so that both sides start and drive as many browsers at a time.
 */
const AT_A_TIME = 5;
/** How often the bench asks whether the job ended: the wall time's resolution. */
const POLL_MS = 100;
/** A step's own bound on waiting for its element, on both sides. */
const STEP_TIMEOUT_MS = 30_000;

/** A sign-up form, a search that answers on Enter, and a second page for a tab. */
const FORM = `<!doctype html><title>flow bench</title><body>
<input id="name"><input id="email"><select id="plan"><option value="free">Free</option><option value="pro">Pro</option></select>
<label><input id="agree" type="checkbox"> agree</label>
<div style="height:1500px"></div><button id="send" type="button">Send</button>
<input id="search">
<script>
  const $ = (id) => document.getElementById(id);
  const add = (id, text, data) => { const p = document.createElement('p'); p.id = id; p.textContent = text; if (data) p.dataset.value = data; document.body.append(p); };
  $('send').onclick = () => add('order', 'ordered', $('name').value + '/' + $('plan').value + '/' + $('agree').checked);
  $('search').onkeydown = (e) => { if (e.key === 'Enter') add('found', 'found ' + $('search').value); };
</script></body>`;
const OTHER = '<!doctype html><title>other</title><h1>the other page</h1>';

/** The 20 steps; `${site}` is the flow's value. */
const STEPS: FlowStep[] = [
  { type: 'open_url', url: '${site}/form' },
  { type: 'wait', selector: '#name', timeout_ms: 10_000 },
  { type: 'type', selector: '#name', text: 'Bench User' },
  { type: 'type', selector: '#email', text: 'bench@example.com' },
  { type: 'select', selector: '#plan', value: 'pro' },
  { type: 'click', selector: '#agree' },
  { type: 'scroll', y: 400 },
  { type: 'scroll', selector: '#send' },
  { type: 'click', selector: '#send' },
  { type: 'wait', selector: '#order', timeout_ms: 10_000 },
  { type: 'extract', selector: '#order', attribute: 'data-value', global: 'bench_order' },
  { type: 'wait', ms: 50 },
  { type: 'type', selector: '#search', text: 'lpa' },
  { type: 'press', key: 'Enter' },
  { type: 'wait', selector: '#found', timeout_ms: 10_000 },
  { type: 'extract', selector: '#found', global: 'bench_found' },
  { type: 'new_tab', url: '${site}/other' },
  { type: 'extract', selector: 'h1', global: 'bench_other' },
  { type: 'close_tab' },
  { type: 'wait', min_ms: 10, max_ms: 30 },
];
/** What the extracts read, on every profile: the steps did what they say. */
const EXTRACTED = { bench_order: 'Bench User/pro/true', bench_found: 'found lpa', bench_other: 'the other page' };

/**
 * The steps as a script of a user's would drive a browser with puppeteer-core, with the calls LPA's
 * own runner makes for each (src/host/node/browsers/page-steps.ts): the reference does the same work.
 * Answers what the extracts read.
 */
async function driveDirectly(browser: Browser, steps: FlowStep[]): Promise<Record<string, string>> {
  const extracted: Record<string, string> = {};
  let page: Page = (await browser.pages())[0] ?? (await browser.newPage());
  for (const step of steps)
    switch (step.type) {
      case 'open_url':
        await page.goto(step.url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });
        break;
      case 'new_tab':
        page = await browser.newPage();
        if (step.url) await page.goto(step.url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });
        break;
      case 'close_tab':
        await page.close();
        page = (await browser.pages())[0]!;
        break;
      case 'click':
        await page.locator(step.selector).setTimeout(STEP_TIMEOUT_MS).click();
        break;
      case 'type':
        await page.locator(step.selector).setTimeout(STEP_TIMEOUT_MS).fill(step.text);
        break;
      case 'select':
        await page.waitForSelector(step.selector, { timeout: STEP_TIMEOUT_MS });
        await page.select(step.selector, step.value);
        break;
      case 'press':
        await page.keyboard.press(step.key as KeyInput);
        break;
      case 'scroll':
        if (step.selector)
          await (await page.waitForSelector(step.selector, { timeout: STEP_TIMEOUT_MS }))!.scrollIntoView();
        else
          await page.evaluate(
            (x, y) => (globalThis as unknown as { scrollBy(x: number, y: number): void }).scrollBy(x, y),
            step.x ?? 0,
            step.y ?? 0,
          );
        break;
      case 'wait':
        if (step.selector) await page.waitForSelector(step.selector, { timeout: step.timeout_ms });
        else if (step.ms !== undefined) await wait(step.ms);
        else await wait(step.min_ms! + Math.floor(Math.random() * (step.max_ms! - step.min_ms! + 1)));
        break;
      case 'extract': {
        const element = (await page.waitForSelector(step.selector, { timeout: STEP_TIMEOUT_MS }))!;
        extracted[step.global] = (await element.evaluate(
          (node, attribute) => (attribute === null ? node.textContent : node.getAttribute(attribute)),
          step.attribute ?? null,
        ))!;
        break;
      }
      default:
        throw new Error(`the bench's steps have no ${step.type}`);
    }
  return extracted;
}

/** `count` tasks, at most AT_A_TIME at once, as LPA's job takes its profiles. */
async function atATime(count: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(AT_A_TIME, count) }, worker));
}

export async function flowRunFigures({ service, browser, root, row, notes }: Bench, rounds: number): Promise<void> {
  log(
    `flows: ${STEPS.length} steps on ${PROFILES} profiles, ${rounds} job(s) through LPA and as many directly, in turn`,
  );
  const site = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(req.url === '/other' ? OTHER : FORM);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  try {
    const flow = await ok<{ id: string }>(service, '/api/v1/automation/flows', {
      method: 'POST',
      body: { name: 'bench flow', steps: STEPS, values: [{ name: 'site', value: url }] },
    });
    const ids: string[] = [];
    for (let i = 0; i < PROFILES; i++) ids.push(await newProfile(service, `bench flow ${i}`));
    const status = async () => void (await ok(service, '/status'));

    /** One job on every profile, headless and stopped after: the wall time until the bench saw it end. */
    const throughLpa = async () => {
      const began = performance.now();
      const started = await call<FlowJob>(service, `/api/v1/automation/flows/${flow.id}/runs`, {
        method: 'POST',
        body: { profile_ids: ids, headless: true, stop_after: true },
      });
      if (started.status !== 202) throw new Error(`the job did not start: ${JSON.stringify(started.json)}`);
      let job = started.json;
      while (job.state === 'running') {
        await wait(POLL_MS);
        job = await ok<FlowJob>(service, `/api/v1/automation/runs/${job.id}`);
      }
      const took = performance.now() - began;
      if (job.state !== 'succeeded')
        throw new Error(`the job ended ${job.state}: ${JSON.stringify(job).slice(0, 1000)}`);
      return took;
    };
    const steps = STEPS.map((step) => resolveStep(step, () => url));
    const direct = async () => {
      const began = performance.now();
      await atATime(PROFILES, async (i) => {
        const { child, endpoint } = await launchDirect(browser, join(root, `flow-direct-${i}`));
        const client = await connect({ browserWSEndpoint: endpoint });
        const extracted = await driveDirectly(client, steps);
        await closeDirect(client, child);
        if (JSON.stringify(extracted) !== JSON.stringify(EXTRACTED))
          throw new Error(`the direct steps read ${JSON.stringify(extracted)}`);
      });
      return performance.now() - began;
    };

    const taken = { lpa: [] as number[], direct: [] as number[] };
    const statusDuring = { lpa: [] as number[], direct: [] as number[] };
    // `/status`, one request at a time while `running` runs, each time pooled over the rounds of its side.
    const sampled = async <T>(running: Promise<T>, into: number[]) => {
      await sampleWhile(running, async () => {
        const started = performance.now();
        await status();
        into.push(performance.now() - started);
      });
      return running;
    };
    for (let round = 0; round < rounds; round++) {
      const lpaFirst = round % 2 === 0;
      if (lpaFirst) {
        taken.lpa.push(await sampled(throughLpa(), statusDuring.lpa));
      }
      taken.direct.push(await sampled(direct(), statusDuring.direct));
      if (!lpaFirst) {
        taken.lpa.push(await sampled(throughLpa(), statusDuring.lpa));
      }
    }
    for (const [name, value] of Object.entries(EXTRACTED)) {
      const stored = await ok<{ value: string }>(service, `/api/v1/automation/globals/${name}`);
      if (stored.value !== value) throw new Error(`the job's extract wrote ${name} = ${stored.value}`);
    }

    const lpa = percentiles(taken.lpa).p50;
    const reference = percentiles(taken.direct).p50;
    row(
      'Flows',
      `a ${STEPS.length}-step flow on ${PROFILES} profiles (headless, stop_after), job start → ended, p50 of ${rounds}`,
      ms(lpa),
      {
        reference: `the same steps with puppeteer-core on ${PROFILES} direct launches, ${AT_A_TIME} at a time, launch → closed ${ms(reference)}`,
        ratio: times(lpa / reference),
      },
    );
    const busy = percentiles(statusDuring.lpa);
    const beside = percentiles(statusDuring.direct);
    row('Flows', `GET /status while the job runs, p99 of ${busy.n} (one at a time)`, ms(busy.p99), {
      reference: `p50 ${ms(busy.p50)}; while the direct steps run: p99 ${ms(beside.p99)} (p50 ${ms(beside.p50)}, ${beside.n})`,
      ratio: times(busy.p99 / beside.p99),
    });
    const each = (all: number[]) => all.map((t) => t.toFixed(0)).join(', ');
    notes.push(
      `Flow jobs, each (ms): through LPA ${each(taken.lpa)} (the job's state polled every ${POLL_MS} ms); direct ${each(taken.direct)}.`,
    );
  } finally {
    site.close();
  }
}
