/**
 * Run after every `npm install` that changes the workerd version (docs/development.md#upgrading-workerd): completes
 * package-lock.json with workerd's platform packages that the npm registry in use does not serve.
 *
 * Why: workerd lists one optional package per platform. When the registry lacks a platform's
 * package at that version (the mirror here serves macOS/Windows builds only up to 1.20261023.1),
 * `npm install` silently leaves it out of the lock, and `npm ci` then refuses the lock as out of
 * sync with package.json. The entry written here is what npm itself writes for a package of another
 * platform: name, version, os and cpu; `npm ci` on Linux skips it (wrong os), and on a machine of
 * that platform npm fetches it by name and version from a registry that serves it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const LOCK = fileURLToPath(new URL('../package-lock.json', import.meta.url));
/** Package-name suffix (`@cloudflare/workerd-<os>-<cpu>`) → npm's own os and cpu names. */
const OS = { darwin: 'darwin', linux: 'linux', windows: 'win32' };
const CPU = { 64: 'x64', arm64: 'arm64' };

const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;
for (const [path, workerd] of Object.entries(packages)) {
  if (!/(^|\/)node_modules\/workerd$/.test(path)) continue;
  const folder = path.slice(0, -'workerd'.length);
  for (const [name, version] of Object.entries(workerd.optionalDependencies ?? {})) {
    const [, os, cpu] = /^@cloudflare\/workerd-([a-z]+)-([a-z0-9]+)$/.exec(name) ?? [];
    if (!OS[os] || !CPU[cpu]) throw new Error(`unknown workerd platform package ${name}`);
    // npm places the package beside workerd or higher up; an entry at either place satisfies it.
    if ([`${folder}${name}`, `node_modules/${name}`].some((at) => packages[at]?.version === version)) continue;
    packages[`${folder}${name}`] = {
      version,
      ...(workerd.dev ? { dev: true } : {}),
      cpu: [CPU[cpu]],
      license: workerd.license,
      optional: true,
      os: [OS[os]],
      engines: workerd.engines,
    };
    console.log(`lock: added ${folder}${name}@${version}`);
  }
}
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
