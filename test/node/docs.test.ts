import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/shared/errors/catalog';
import { ROUTES } from '../../handlers';
import { AUDIT_ACTIONS } from '../../storage/audit/actions';

const root = resolve(new URL('../..', import.meta.url).pathname);
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
/** Every file of the repository that git tracks or would track: what a clone holds. */
const repoFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && existsSync(join(root, file)));
const markdown = repoFiles.filter((file) => file.endsWith('.md'));

/** GitHub's anchors of a Markdown file's headings (a repeated heading gets -1, -2, …). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

describe('README', () => {
  it('documents every error code of the catalogue', () => {
    expect(Object.keys(ERROR_CATALOG).filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
  });

  it('documents every audit action with its category', () => {
    const missing = Object.entries(AUDIT_ACTIONS)
      .filter(([action, { category }]) => !new RegExp(`\`${action.replace('.', '\\.')}\`[^\\n]*\\b${category}\\b`).test(readme))
      .map(([action]) => action);
    expect(missing).toEqual([]);
  });
});

describe('the documentation is self-contained', () => {
  it('names no specification or design outside the repository', () => {
    const outside = repoFiles.filter((file) => /\.(md|ts|mjs|cjs|json|toml|yaml|sh)$/.test(file) && /\.\.\/shared\/[A-Z]|shared\/(SPEC|DESIGN)\.md|\/work\//.test(read(file)));
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
        const ok = inside && existsSync(linked) && (anchor === undefined || anchors(readFileSync(linked, 'utf8')).has(anchor));
        if (!ok) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lists in docs/spec.md exactly the served routes, with their scopes', () => {
    const documented = [...read('docs/spec.md').matchAll(/^\| (GET|PUT|POST|PATCH|DELETE) \| (\/\S*) \| ([^|]+) \|/gm)].map(
      ([, method, path, scopes]) => `${method} ${path} ${scopes!.trim().replace(/^none, no token$/, 'public')}`,
    );
    const served = ROUTES.map((route) => {
      const scopes = route.access === 'public' ? 'public' : route.access === 'admin' ? 'admin session' : route.scopes?.length ? route.scopes.join(', ') : 'none';
      return `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')} ${scopes}`;
    });
    expect(documented.sort()).toEqual(served.sort());
  });
});
