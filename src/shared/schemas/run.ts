import { z } from 'zod';
import { ErrorEnvelope } from '../errors/envelope';
import { BrowserArg, BrowserSettings, StartUrl } from './browser-settings';
import { Id, uniqueItems } from './ids';

/**
 * A run's life: `starting` until the browser answers DevTools, `running`, `stopping` while it is
 * being closed; then `stopped` (closed by LPA or by a DevTools client), `failed` (it never answered
 * DevTools) or `crashed` (it exited on its own, or LPA itself stopped without closing it).
 */
export const RunState = z.enum(['starting', 'running', 'stopping', 'stopped', 'failed', 'crashed']);
export type RunState = z.output<typeof RunState>;

/** The states of a run whose browser may be alive. */
export const LIVE_RUN_STATES = ['starting', 'running', 'stopping'] as const satisfies readonly RunState[];

/** Why a run ended (docs/runs.md#how-a-run-ends). */
export const RunEndReason = z.enum([
  'stopped',
  'killed',
  'browser_closed',
  'exited',
  'failed',
  'service_stopped',
  'lease_lost',
]);

/** One start of a profile's browser (docs/runs.md). */
export const Run = z
  .object({
    id: z.string(),
    profile_id: z.string(),
    state: RunState,
    headless: z.boolean(),
    ws_endpoint: z.string().nullable().meta({
      description:
        "The browser's DevTools WebSocket on LPA's own port, with the run's secret in its path: for Puppeteer's `browserWSEndpoint` and Playwright's `connectOverCDP`. Shown to tokens with `runtime:control` while the run is alive; null otherwise.",
    }),
    http_endpoint: z.string().nullable().meta({
      description:
        "The matching HTTP base: `/json/version` and `/json/list` answer as on a browser's own debugging port.",
    }),
    debug_port: z.int().nullable().meta({
      description: 'A raw DevTools port on 127.0.0.1, only when the start asked for one (`debug_port: true`).',
    }),
    browser_version: z.string().nullable(),
    pid: z.int().nullable(),
    started_at: z.int(),
    ended_at: z.int().nullable(),
    end_reason: RunEndReason.nullable(),
    exit_code: z.int().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'Run' });
export type Run = z.output<typeof Run>;

/**
 * `POST /api/v1/profiles/{id}/start`: every field optional, and the body too. A browser setting given
 * here replaces the profile's own (its `browser`) for this run only; one left out is the profile's.
 */
export const RunStart = z
  .object({
    headless: BrowserSettings.shape.headless.optional(),
    url: StartUrl.optional().meta({ description: "The one page to open, in place of the profile's `start_urls`." }),
    args: z.array(BrowserArg).max(64).optional(),
    window: BrowserSettings.shape.window.optional(),
    user_agent: BrowserSettings.shape.user_agent.optional(),
    languages: BrowserSettings.shape.languages.optional(),
    timezone: BrowserSettings.shape.timezone.optional(),
    timeout_ms: z.int().min(1_000).max(120_000).default(30_000),
    debug_port: z
      .boolean()
      .default(false)
      .meta({ description: "Also open a raw DevTools port on 127.0.0.1 (for Selenium's `debuggerAddress`); audited." }),
    check_proxy: z.boolean().default(false).meta({
      description:
        "First fetch `url` (when it is http or https) through the profile's proxy, and start only if it answers (docs/proxies.md).",
    }),
  })
  .strict()
  .meta({ id: 'RunStart' });
export type RunStart = z.output<typeof RunStart>;

/** `POST /api/v1/profiles/{id}/stop`: `force` kills the browser at once instead of asking it to close. */
export const RunStop = z
  .object({ force: z.boolean().default(false) })
  .strict()
  .meta({ id: 'RunStop' });

export const RunList = z.object({ items: z.array(Run) }).meta({ id: 'RunList' });

/** A picture of a running profile's first page: what the console shows as its thumbnail. */
export const RunScreenshot = z
  .object({ run_id: z.string(), png_base64: z.base64(), taken_at: z.int() })
  .meta({ id: 'RunScreenshot' });

/** The ids of a batch: 1..100 profiles, none twice. */
const BatchIds = uniqueItems(z.array(Id).min(1).max(100), 'an id is given twice');

/** `POST /api/v1/profiles/batch/start`: the profiles, and the options every start of the batch takes. */
export const RunBatchStart = RunStart.extend({ ids: BatchIds }).strict().meta({ id: 'RunBatchStart' });

/** `POST /api/v1/profiles/batch/stop`. */
export const RunBatchStop = RunStop.extend({ ids: BatchIds }).strict().meta({ id: 'RunBatchStop' });

/** Each profile's outcome of a batch, in the order asked (the spec's errors rule 1: one failure fails only its item). */
export const RunBatchResults = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        run: Run.nullable(),
        error: ErrorEnvelope.shape.error.nullable(),
      }),
    ),
  })
  .meta({ id: 'RunBatchResults' });
export type RunBatchResults = z.output<typeof RunBatchResults>;
