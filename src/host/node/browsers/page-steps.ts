import type { Browser, ConnectionTransport, KeyInput, Page } from 'puppeteer-core';
import type { PageStep } from '../../../shared/schemas/flow-steps';
import type { PageStepResult } from '../../runs-schema';
import type { ClientEvents, DevtoolsRelay } from './devtools-relay';

/** How long a step waits for its element, or for a page to load, unless it says otherwise. */
const STEP_TIMEOUT_MS = 30_000;

/** An error's message with its causes: Puppeteer says "Waiting for selector … failed" and puts the timeout in the cause. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined ? error.message : `${error.message}: ${reasonOf(error.cause)}`;
}

/**
 * Puppeteer over a run's relay, as one more DevTools client with a session of its own: the steps of
 * a flow drive the browser without an endpoint, a socket or the run's secret.
 */
class RelayTransport implements ConnectionTransport {
  onmessage?: (message: string) => void;
  onclose?: () => void;
  private readonly events: ClientEvents;

  constructor(relay: DevtoolsRelay) {
    this.events = relay.attach(
      { send: (text) => this.onmessage?.(text), close: () => this.onclose?.() },
      { browser: true },
    );
  }

  send(message: string): void {
    this.events.message(message);
  }

  close(): void {
    this.events.closed();
    this.onclose?.();
  }
}

/**
 * The steps of flows on one run's browser (docs/automation.md#steps), one at a time, on its current
 * tab: the first page until a step opens or switches to another. Puppeteer (a well-kept client of
 * the same protocol) does the waiting for elements, the clicks and the typing.
 */
export class PageSteps {
  private browser: Promise<Browser> | null = null;
  private page: Page | null = null;

  constructor(private readonly relay: DevtoolsRelay) {}

  /** Runs one step; a step that fails is a result, never the host's error. Its message never holds a step's text. */
  async run(step: PageStep): Promise<PageStepResult> {
    try {
      return { ok: true, value: await this.perform(step) };
    } catch (error) {
      return { ok: false, error: reasonOf(error).slice(0, 1000) };
    }
  }

  /** The run has ended: Puppeteer lets go of it. */
  close(): void {
    void this.browser?.then((browser) => browser.disconnect()).catch(() => {});
    this.browser = null;
  }

  private async perform(step: PageStep): Promise<string | null> {
    const browser = await this.connected();
    const page = await this.current(browser);
    switch (step.type) {
      case 'open_url':
        await page.goto(step.url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });
        return null;
      case 'new_tab': {
        this.page = await browser.newPage();
        if (step.url) await this.page.goto(step.url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });
        return null;
      }
      case 'close_tab':
        await page.close();
        this.page = null;
        return null;
      case 'switch_tab': {
        const pages = await browser.pages();
        const chosen = pages[step.index];
        if (!chosen) throw new Error(`there is no tab at index ${step.index} (${pages.length} open)`);
        await chosen.bringToFront();
        this.page = chosen;
        return null;
      }
      case 'click':
        await page.locator(step.selector).setTimeout(STEP_TIMEOUT_MS).click();
        return null;
      case 'type':
        await page.locator(step.selector).setTimeout(STEP_TIMEOUT_MS).fill(step.text);
        return null;
      case 'select': {
        await page.waitForSelector(step.selector, { timeout: STEP_TIMEOUT_MS });
        const chosen = await page.select(step.selector, step.value);
        if (chosen.length === 0) throw new Error(`the element has no option of that value: ${step.selector}`);
        return null;
      }
      case 'press':
        await page.keyboard.press(step.key as KeyInput);
        return null;
      case 'scroll':
        if (step.selector)
          await (await page.waitForSelector(step.selector, { timeout: STEP_TIMEOUT_MS }))!.scrollIntoView();
        else
          await page.evaluate(
            // Runs in the page, whose global is its window.
            (x, y) => (globalThis as unknown as { scrollBy(x: number, y: number): void }).scrollBy(x, y),
            step.x ?? 0,
            step.y ?? 0,
          );
        return null;
      case 'wait':
        await page.waitForSelector(step.selector, { timeout: step.timeout_ms });
        return null;
      case 'extract': {
        const element = (await page.waitForSelector(step.selector, { timeout: STEP_TIMEOUT_MS }))!;
        const value = await element.evaluate(
          (node, attribute) => (attribute === null ? node.textContent : node.getAttribute(attribute)),
          step.attribute ?? null,
        );
        if (value === null) throw new Error(`the element has no attribute ${step.attribute}: ${step.selector}`);
        return value;
      }
      case 'screenshot':
        return await page.screenshot({ encoding: 'base64', type: 'png' });
    }
  }

  private connected(): Promise<Browser> {
    this.browser ??= import('puppeteer-core').then(({ default: puppeteer }) =>
      puppeteer.connect({ transport: new RelayTransport(this.relay), defaultViewport: null }),
    );
    // A connection that failed is not kept: the next step tries again.
    this.browser.catch(() => {
      this.browser = null;
    });
    return this.browser;
  }

  /** The current tab: the one a step chose while it is open, else the first, else a new one. */
  private async current(browser: Browser): Promise<Page> {
    if (this.page && !this.page.isClosed()) return this.page;
    this.page = (await browser.pages())[0] ?? (await browser.newPage());
    return this.page;
  }
}
