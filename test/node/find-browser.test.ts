import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBrowser } from '../../src/host/node/browsers/find-browser';

const folder = mkdtempSync(join(tmpdir(), 'lpa-find-browser-'));

/** A stand-in browser: a shell script that answers `--version` as `body` does. */
function fakeBrowser(name: string, body: string): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('the browser LPA_BROWSER names', () => {
  it('is found with the version its --version prints', async () => {
    const path = fakeBrowser('chromium-ok', 'echo "Chromium 150.0.7761.2 built on Debian"');
    expect(await findBrowser(path)).toEqual({
      found: true,
      path,
      version: '150.0.7761.2',
      product: 'Chromium 150.0.7761.2 built on Debian',
    });
  });

  it('is a problem when it is missing, prints no version, or fails', async () => {
    expect(await findBrowser(join(folder, 'nowhere'))).toMatchObject({ found: false, problem: /not an executable/ });
    expect(await findBrowser(fakeBrowser('silent', 'true'))).toMatchObject({
      found: false,
      problem: /printed no version/,
    });
    expect(await findBrowser(fakeBrowser('failing', 'exit 3'))).toMatchObject({
      found: false,
      problem: /--version failed/,
    });
  });

  it('is asked its version without blocking: the host serves other requests while a slow browser answers', async () => {
    const path = fakeBrowser('slow', 'sleep 1; echo "Chromium 150.0.7761.2"');
    const began = Date.now();
    const finding = findBrowser(path);
    // Blocking for the second the browser takes, as execFileSync did, would hold this timer back with everything else.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Date.now() - began).toBeLessThan(700);
    expect(await finding).toMatchObject({ found: true, version: '150.0.7761.2' });
  });
});
