import { describe, expect, it } from 'vitest';
import { browserFlags } from '../../src/host/node/browsers/browser-runs';
import { BROWSER_DEFAULTS } from '../../src/shared/schemas/browser-settings';

const PROXY = 'http://127.0.0.1:41234';

/** The command line of a run with these settings, and its `--disable-features` switches. */
function commandLine(settings: Partial<typeof BROWSER_DEFAULTS>, proxyUrl: string | null = null) {
  const flags = browserFlags(
    '/data/browsers/p',
    { browser: { ...BROWSER_DEFAULTS, ...settings }, debug_port: false },
    proxyUrl,
  );
  return { flags, disabled: flags.filter((flag) => flag.startsWith('--disable-features=')) };
}

describe("a run's --disable-features (Chromium keeps only the last one)", () => {
  it('headless: no omnibox popup page, merged with the features the start disables', () => {
    expect(commandLine({ headless: true }).disabled).toEqual([
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ]);
    const { flags, disabled } = commandLine({
      headless: true,
      args: ['--disable-features=Translate,,WebUIOmniboxPopup', '--mute-audio'],
    });
    expect(disabled).toEqual(['--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,Translate']);
    expect(flags).toContain('--mute-audio');
  });

  it('with a window: the omnibox popup is left as any Chromium has it', () => {
    expect(commandLine({ headless: false }).disabled).toEqual([]);
    expect(commandLine({ headless: false, args: ['--disable-features=Translate'] }).disabled).toEqual([
      '--disable-features=Translate',
    ]);
  });

  it("behind a proxy: no DNS-over-HTTPS, whatever the start's own --disable-features", () => {
    expect(
      commandLine({ headless: false, args: ['--disable-features=DnsOverHttps,Translate'] }, PROXY).disabled,
    ).toEqual(['--disable-features=DnsOverHttps,Translate']);
    const { flags, disabled } = commandLine({ headless: true, args: ['--disable-features=Translate'] }, PROXY);
    expect(disabled).toEqual(['--disable-features=DnsOverHttps,WebUIOmniboxPopup,WebUIOmniboxAimPopup,Translate']);
    expect(flags).toContain(`--proxy-server=${PROXY}`);
    // The page to open stays last, after every switch.
    expect(flags.at(-1)).toBe('about:blank');
  });
});

describe('what a browser opens', () => {
  it('a run its first start page, or about:blank; a short browser no window and no page at all', () => {
    const launch = {
      browser: { ...BROWSER_DEFAULTS, headless: true, start_urls: ['https://example.com/'] },
      debug_port: false,
    };
    expect(browserFlags('/data/browsers/p', launch).at(-1)).toBe('https://example.com/');
    const short = browserFlags(
      '/data/browsers/p',
      { ...launch, browser: { ...launch.browser, start_urls: [] } },
      null,
      false,
    );
    expect(short.at(-1)).toBe('--no-startup-window');
    expect(short).not.toContain('about:blank');
  });
});
