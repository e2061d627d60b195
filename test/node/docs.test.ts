import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencePages } from '../../scripts/docs/pages';
import { ENVIRONMENT } from '../../src/shared/environment';
import { ERROR_CATALOG } from '../../src/shared/errors/catalog';
import { ROUTES } from '../../handlers';
import { AUDIT_ACTIONS } from '../../storage/audit/actions';

const root = resolve(new URL('../..', import.meta.url).pathname);
const read = (path: string) => readFileSync(join(root, path), 'utf8');
/** Every file of the repository that git tracks or would track: what a clone holds. */
const repoFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && existsSync(join(root, file)));
const markdown = repoFiles.filter((file) => file.endsWith('.md'));
const code = repoFiles.filter((file) => /\.(ts|mjs|cjs|sh)$|^\.ci\//.test(file));

/** GitHub's anchors of a Markdown file's headings (a repeated heading gets -1, -2, …). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

describe('docs/reference, generated from the code', () => {
  it('is current (npm run docs)', async () => {
    const stale = Object.entries(await referencePages(read)).filter(
      ([path, text]) => !existsSync(join(root, path)) || read(path) !== text,
    );
    expect(stale.map(([path]) => path)).toEqual([]);
  });

  it('lists every error code of the catalogue with its status', () => {
    const errors = read('docs/reference/errors.md');
    const missing = Object.entries(ERROR_CATALOG).filter(
      ([code, { status }]) => !errors.includes(`| \`${code}\` | ${status} |`),
    );
    expect(missing.map(([code]) => code)).toEqual([]);
  });

  it('lists every audit action with its category', () => {
    const actions = read('docs/reference/audit-actions.md');
    const missing = Object.entries(AUDIT_ACTIONS).filter(
      ([action, { category }]) => !actions.includes(`| \`${action}\` | ${category} |`),
    );
    expect(missing.map(([action]) => action)).toEqual([]);
  });

  it('declares every environment variable the code reads from process.env', () => {
    const names = code.flatMap((file) =>
      [...read(file).matchAll(/process\.env\.([A-Z][A-Z0-9_]*)\b(?!\s*=[^=])/g)].map(([, name]) => name!),
    );
    expect([...new Set(names)].filter((name) => !(name in ENVIRONMENT))).toEqual([]);
  });
});

describe('the documentation is self-contained', () => {
  it('names no specification or design outside the repository', () => {
    const outside = repoFiles.filter(
      (file) =>
        /\.(md|ts|mjs|cjs|json|toml|yaml|sh)$/.test(file) &&
        /\.\.\/shared\/[A-Z]|shared\/(SPEC|DESIGN)\.md|\/work\//.test(read(file)),
    );
    expect(outside).toEqual([]);
  });

  it('links only to files and headings inside the repository', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const linked = path === '' ? join(root, file) : resolve(root, dirname(file), path);
        const inside = !relative(root, linked).startsWith('..');
        const ok =
          inside && existsSync(linked) && (anchor === undefined || anchors(readFileSync(linked, 'utf8')).has(anchor));
        if (!ok) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('points code comments at pages and headings of docs/ that exist, never at a README section', () => {
    const broken: string[] = [];
    // This file names the word it looks for.
    for (const file of code.filter((file) => file !== 'test/node/docs.test.ts')) {
      const text = read(file);
      for (const [target] of text.matchAll(/docs\/[\w./-]+\.md(#[\w-]+)?/g)) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        if (!existsSync(join(root, path)) || (anchor !== undefined && !anchors(read(path)).has(anchor)))
          broken.push(`${file}: ${target}`);
      }
      for (const [pointer] of text.matchAll(/\bREADME\b(?!\.md)[^\n]{0,40}/g)) broken.push(`${file}: ${pointer}`);
    }
    expect(broken).toEqual([]);
  });

  it('lists in docs/spec.md exactly the served routes, with their scopes', () => {
    const documented = [
      ...read('docs/spec.md').matchAll(/^\| (GET|PUT|POST|PATCH|DELETE) \| (\/\S*) \| ([^|]+) \|/gm),
    ].map(([, method, path, scopes]) => `${method} ${path} ${scopes!.trim().replace(/^none, no token$/, 'public')}`);
    const served = ROUTES.map((route) => {
      const scopes =
        route.access === 'public'
          ? 'public'
          : route.access === 'admin'
            ? 'admin session'
            : route.scopes?.length
              ? route.scopes.join(', ')
              : 'none';
      return `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')} ${scopes}`;
    });
    expect(documented.sort()).toEqual(served.sort());
  });
});
