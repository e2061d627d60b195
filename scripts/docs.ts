/**
 * `npm run docs`: writes docs/reference/ from the declarations in the code (the error catalogue, the
 * audit actions, the CLI program, the environment variables), the configuration table of README.md and
 * the TypeScript SDK's types (packages/sdk-ts/src/schema.d.ts, from the OpenAPI document).
 * `npm run docs -- --check` writes nothing and exits 1 when a generated file is missing or differs
 * from what the code says (CI).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referencePages } from './docs/pages';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const stale: string[] = [];

for (const [path, text] of Object.entries(await referencePages((path) => readFileSync(join(root, path), 'utf8')))) {
  const file = join(root, path);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (current === text) continue;
  stale.push(relative(root, file));
  if (check) continue;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

if (check && stale.length) {
  console.error(`not current (run npm run docs): ${stale.join(', ')}`);
  process.exit(1);
}
console.log(
  stale.length ? `${check ? 'stale' : 'wrote'}: ${stale.join(', ')}` : 'the generated documentation is current',
);
