import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire, findPackageJSON } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerdBinary } from '../../src/runtimes/launcher/workerd-binary';
import { COMPATIBILITY_DATE } from '../../src/runtimes/launcher/workerd-config';

const root = new URL('../..', import.meta.url).pathname;
/** The package.json of the copy of `name` that code in the file `from` loads (whatever the package exports). */
const packageJsonOf = (from: string, name: string) => findPackageJSON(name, pathToFileURL(from))!;

/** The workerd the vitest pool runs: the pool's Miniflare's own `workerd` dependency. */
function poolWorkerd() {
  const pool = packageJsonOf(`${root}package.json`, '@cloudflare/vitest-plugin');
  const miniflare = packageJsonOf(pool, 'miniflare');
  const workerd = JSON.parse(readFileSync(packageJsonOf(miniflare, 'workerd'), 'utf8')) as { version: string };
  const declared = (JSON.parse(readFileSync(miniflare, 'utf8')) as { dependencies: Record<string, string> })
    .dependencies.workerd;
  return {
    binary: (createRequire(miniflare)('workerd') as { default: string }).default,
    version: workerd.version,
    declared,
  };
}

describe('one runtime for tests and product', () => {
  it('npm start runs the very workerd binary the test pool runs, at the version Miniflare asks for', () => {
    const pool = poolWorkerd();
    expect(realpathSync(workerdBinary)).toBe(realpathSync(pool.binary));
    expect(pool.version).toBe(pool.declared);
  });

  it('the launcher and the tests use one compatibility date, the one the installed workerd was built for', () => {
    const wrangler = /^compatibility_date = "([\d-]+)"$/m.exec(readFileSync(`${root}wrangler.toml`, 'utf8'))?.[1];
    expect(wrangler).toBe(COMPATIBILITY_DATE);
    // `workerd --version` prints the newest date it supports, e.g. "workerd 2026-11-17".
    expect(execFileSync(workerdBinary, ['--version'], { encoding: 'utf8' }).trim()).toBe(
      `workerd ${COMPATIBILITY_DATE}`,
    );
  });

  it('npm scripts run on the Node that package.json pins, whatever Node the machine has', () => {
    const pinned = (
      JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { devDependencies: Record<string, string> }
    ).devDependencies.node;
    expect(process.version).toBe(`v${pinned}`);
  });
});
