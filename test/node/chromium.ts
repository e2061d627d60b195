import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium for the browser test: installed here when missing and the tests run as root
 * (as in CI, which also installs it in .ci/run); where it cannot be, the reason to skip. A new
 * machine's package lists may be empty or old, so they are refreshed first.
 */
export function ensureChromium(): { path: string } | { skip: string } {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  if (process.getuid?.() !== 0)
    return {
      skip: `Chromium is not installed at ${CHROMIUM} and the tests do not run as root to install it (apt-get install -y chromium)`,
    };
  try {
    execFileSync('apt-get', ['update'], { stdio: 'ignore', timeout: 300_000 });
    execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'ignore', timeout: 300_000 });
  } catch (error) {
    return { skip: `apt-get update && apt-get install -y chromium failed: ${String(error)}` };
  }
  return existsSync(CHROMIUM) ? { path: CHROMIUM } : { skip: `apt-get installed no ${CHROMIUM}` };
}

/** Headless, no sandbox (root in a container), and nothing that reaches the internet. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
