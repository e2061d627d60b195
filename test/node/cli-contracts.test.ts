import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The CLI and the MCP server call routes only through their contracts (src/contracts): a method, an
 * API path or a hand-typed answer written in src/cli would be a second declaration of a route,
 * which a rename in the contract would not reach.
 */
const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'src/cli');

const FORBIDDEN: [what: string, pattern: RegExp][] = [
  ['an HTTP method literal', /['"`](GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)['"`]/],
  ['an /api/v1 path', /\/api\/v1/],
  ['a call<T> cast or a call by method and path', /\bcall\s*<|\.call\s*\(/],
];

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}

describe('src/cli', () => {
  it('states no route of its own: no method literal, no /api/v1 path, no call<T>', () => {
    const found: string[] = [];
    for (const file of sources(CLI)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [what, pattern] of FORBIDDEN)
            if (pattern.test(line)) found.push(`${relative(ROOT, file)}:${index + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('is what the check reads: the commands and the MCP server are there', () => {
    const files = sources(CLI).map((file) => relative(CLI, file));
    expect(files).toEqual(
      expect.arrayContaining([
        'client.ts',
        'commands/globals.ts',
        'commands/membership.ts',
        'commands/profile-accounts.ts',
        'mcp/call.ts',
      ]),
    );
  });
});
