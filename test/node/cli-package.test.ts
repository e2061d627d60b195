import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from './cli-run';
import { startService, type RunningService } from './service';

/**
 * The `lpa` package as a user gets it: `npm pack` of packages/cli, `npm install -g` of the tarball into
 * a prefix of its own with no network (`--offline`: it has no dependency to fetch), run from a folder
 * outside the repository, where nothing of the checkout (node_modules, scripts) can be found.
 */
const CLI_PACKAGE = join(process.cwd(), 'packages/cli');
const work = mkdtempSync(join(tmpdir(), 'lpa-package-'));
const prefix = join(work, 'prefix');
const elsewhere = join(work, 'elsewhere');
const installed = join(prefix, 'bin', 'lpa');
const cliPackage = JSON.parse(readFileSync(join(CLI_PACKAGE, 'package.json'), 'utf8'));

let service: RunningService;
let packedFiles: string[];

/** The installed `lpa`, run as a shell runs it (through its `#!` line), in a folder outside the repository. */
const lpa = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      installed,
      args,
      {
        cwd: elsewhere,
        env: { ...process.env, LPA_URL: `http://127.0.0.1:${service.port}`, LPA_TOKEN: service.token, ...env },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

beforeAll(async () => {
  mkdirSync(elsewhere);
  // bin/lpa.mjs rebuilds the bundle when a source changed (as a user's `npm pack` would through the
  // package's prepack); packing then skips the scripts, so no test rebuilds dist/ under the others.
  execFileSync(process.execPath, ['bin/lpa.mjs', '--version']);
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: CLI_PACKAGE,
      encoding: 'utf8',
    }),
  );
  packedFiles = packed.files.map((file: { path: string }) => file.path);
  // A cache of its own: the install reads nothing a machine's npm cache happens to hold.
  const npm = ['--offline', '--no-audit', '--no-fund', '--cache', join(work, 'npm-cache')];
  execFileSync('npm', ['install', '--global', ...npm, '--prefix', prefix, join(work, packed.filename)], {
    cwd: elsewhere,
  });
  service = await startService('workerd');
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

describe('the lpa package (packages/cli)', () => {
  it("holds its manifest and its compiled dist only, depends on nothing, and has the service's version", () => {
    expect(packedFiles).toContain('package.json');
    expect(packedFiles).toContain('dist/lpa.mjs');
    expect(packedFiles.filter((path) => path !== 'package.json' && !path.startsWith('dist/'))).toEqual([]);
    expect(
      Object.keys({ ...cliPackage.dependencies, ...cliPackage.optionalDependencies, ...cliPackage.peerDependencies }),
    ).toEqual([]);
    expect(existsSync(join(prefix, 'lib/node_modules', cliPackage.name, 'node_modules'))).toBe(false);
    expect(cliPackage.version).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('installed with npm install -g, answers --version outside the repository', async () => {
    const run = await lpa(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${cliPackage.version}\n`, stderr: '' });
  });

  it('runs commands against a running service, with their output and their errors', async () => {
    const set = await lpa(['globals', 'set', 'installed', 'value', '--revision', '0', '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ name: 'installed', revision: 1 });
    const list = await lpa(['globals', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+REVISION\s+BYTES\s+UPDATED_AT\ninstalled\s+1\s+5\s+\d{4}-/);
    const conflict = await lpa(['globals', 'set', 'installed', 'again', '--revision', '0', '--json']);
    expect(conflict.code).toBe(8);
    expect(JSON.parse(conflict.stderr)).toMatchObject({
      error: { code: 'state.revision_conflict', details: { current_revision: 1 } },
    });
  });

  it('serves MCP as docs/mcp.md configures a host, {"command": "lpa", "args": ["mcp"]}, the installed command', async () => {
    const client = new Client({ name: 'lpa-package-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: installed,
      args: ['mcp'],
      cwd: elsewhere,
      env: {
        ...(process.env as Record<string, string>),
        LPA_URL: `http://127.0.0.1:${service.port}`,
        LPA_TOKEN: service.token,
      },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('getAutomationGlobals');
      const result = await client.callTool({ name: 'getAutomationGlobals', arguments: {} });
      const [content] = result.content as { type: string; text: string }[];
      expect(JSON.parse(content!.text).items.map((item: { name: string }) => item.name)).toContain('installed');
    } finally {
      await client.close();
    }
  });
});
