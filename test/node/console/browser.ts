import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { CHROMIUM_ARGS, ensureChromium } from '../chromium';
import { useService, type Runtime } from '../service';

/** Debian's Chromium, or why the console's browser tests are skipped (test/node/chromium.ts). */
export const chromiumFound = ensureChromium();
if ('skip' in chromiumFound) console.warn(`console browser tests skipped: ${chromiumFound.skip}`);
export const noChromium = 'skip' in chromiumFound;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What a page logged as an error, and the page errors it threw: a console in use logs none. */
export interface Tab {
  page: Page;
  errors: string[];
}

/**
 * One service (`env` added to its environment) and one Chromium for a file's tests; `open()` gives a
 * fresh tab (its own session storage) on the console, collecting every console error and uncaught
 * exception.
 */
export function useConsole(runtime: Runtime = 'workerd', env: Record<string, string> = {}) {
  const svc = useService(runtime, env);
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: (chromiumFound as { path: string }).path, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  const origin = () => `http://127.0.0.1:${svc.current.port}`;
  return {
    svc,
    origin,
    browser: () => browser,
    async open(path = '/', permissions: string[] = []): Promise<Tab> {
      const context = await browser.newContext({ permissions });
      const page = await context.newPage();
      const errors: string[] = [];
      // With where it happened: a refused request's error names only its status, the location its URL.
      page.on(
        'console',
        (message) => message.type() === 'error' && errors.push(`${message.text()} ${message.location().url}`.trim()),
      );
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${origin()}${path}`);
      return { page, errors };
    },
  };
}

/** Signs in with a token through the form, as a person would, and waits for the navigation. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
}

/** Opens a page through its navigation link and waits for its heading. */
export async function goTo(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** The elements that stick out of the window, outside a table's own scrolling box: none, on a readable page. */
export function outsideWindow(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter(
        (e) =>
          e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && !e.closest('.table-wrap'),
      )
      .map((e) => `${e.tagName}.${e.className}`),
  );
}

/**
 * axe-core on the page as it is: no serious or critical violation. The engine is evaluated through
 * the DevTools protocol, which the page's CSP does not govern (an injected `<script>` would be refused).
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}
