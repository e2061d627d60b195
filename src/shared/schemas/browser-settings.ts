import { z } from 'zod';

/**
 * Browser switches a start may not pass: what LPA owns (the profile's folder, DevTools, proxies, the
 * origins allowed to drive DevTools, headless mode, and the settings below: user agent, languages,
 * window size) and any switch that makes the browser run another program. A switch is `--name` or
 * `--name=value`; Chromium also reads `-name`, so only `--` is taken.
 */
const OWNED_SWITCHES = [
  /^user-data-dir$/,
  /^remote-debugging-/,
  /^remote-allow-origins$/,
  /^proxy-/,
  /^no-proxy-server$/,
  /^headless$/,
  /-launcher$/,
  /-cmd-prefix$/,
  /^browser-subprocess-path$/,
  /^nacl-gdb/,
  /^gpu-startup-dialog$/,
  /^renderer-startup-dialog$/,
  /^user-agent$/,
  /^lang$/,
  /^accept-lang$/,
  /^window-size$/,
];
const SWITCH = /^--([a-z0-9][a-z0-9-]*)(=.*)?$/s;

export const BrowserArg = z
  .string()
  .max(1024)
  .superRefine((arg, check) => {
    const name = SWITCH.exec(arg)?.[1];
    if (name === undefined)
      check.addIssue({ code: 'custom', message: 'a browser switch is `--name` or `--name=value`' });
    else if (OWNED_SWITCHES.some((owned) => owned.test(name)))
      check.addIssue({ code: 'custom', message: `--${name} is LPA's to set (docs/runs.md#start)` });
  });

/** A page a browser opens at its start: `http`, `https`, `about` or `file`. */
export const StartUrl = z.url({ protocol: /^https?$|^about$|^file$/ }).max(2048);

/** A BCP 47 language tag as `--lang` and `Accept-Language` take it (`en-US`, `de`, `zh-Hant-TW`). */
const Language = z
  .string()
  .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'a language tag such as en-US')
  .max(35);

/** Whether the runtime's time zone data knows `name`: what the browser's ICU reads from `TZ`. */
const knownTimeZone = (name: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** An IANA time zone name (`Europe/Berlin`, `UTC`); no offsets, which `TZ` would read otherwise. */
const TimeZone = z
  .string()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/, 'an IANA time zone name such as Europe/Berlin')
  .refine(knownTimeZone, 'not a time zone this service knows');

/** The outer size of the browser's window, in CSS pixels (`--window-size`). */
const WindowSize = z.object({ width: z.int().min(100).max(10_000), height: z.int().min(100).max(10_000) }).strict();

/** A user agent string: printable, one line. */
const UserAgent = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII on one line');

/**
 * What a profile keeps of how its browser starts (docs/runs.md#browser-settings); a start's body may
 * override each of them for that run. Only what is listed is applied: LPA makes no claim of
 * fingerprint protection beyond it.
 */
export const BrowserSettings = z
  .object({
    headless: z.boolean().meta({ description: 'Run without a window (`--headless=new`).' }),
    window: WindowSize.nullable().meta({
      description: "The window's outer size (`--window-size`); null leaves it to the browser.",
    }),
    start_urls: z
      .array(StartUrl)
      .max(20)
      .meta({ description: 'The pages a start opens, one tab each; none opens `about:blank`.' }),
    user_agent: UserAgent.nullable().meta({
      description: "`navigator.userAgent` and the `User-Agent` header (`--user-agent`); null keeps the browser's.",
    }),
    languages: z.array(Language).min(1).max(20).nullable().meta({
      description:
        "`navigator.languages` and `Accept-Language`, the first also the UI language (`--lang`, `--accept-lang`); null keeps the browser's.",
    }),
    timezone: TimeZone.nullable().meta({
      description:
        "The time zone pages see (`Intl`, `Date`), set as the browser process's `TZ`; null keeps the machine's.",
    }),
    args: z
      .array(BrowserArg)
      .max(64)
      .meta({ description: 'Extra switches, each `--name` or `--name=value`, refused as in a start.' }),
  })
  .strict()
  .meta({ id: 'BrowserSettings' });
export type BrowserSettings = z.output<typeof BrowserSettings>;

/** The settings of a profile that was given none. */
export const BROWSER_DEFAULTS: BrowserSettings = {
  headless: false,
  window: null,
  start_urls: [],
  user_agent: null,
  languages: null,
  timezone: null,
  args: [],
};

/** The settings as a create or a change gives them: each one left out is kept (or, for a new profile, its default). */
export const BrowserSettingsPatch = BrowserSettings.partial().strict().meta({ id: 'BrowserSettingsPatch' });
export type BrowserSettingsPatch = z.output<typeof BrowserSettingsPatch>;

/** `settings` with what `patch` gives in their place. */
export function patchBrowserSettings(settings: BrowserSettings, patch: BrowserSettingsPatch = {}): BrowserSettings {
  const given = Object.entries(patch).filter(([, value]) => value !== undefined);
  return { ...settings, ...Object.fromEntries(given) };
}
