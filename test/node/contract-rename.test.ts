import { getRequestListener } from '@hono/node-server';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/cli/client';
import { globalsCommand } from '../../src/cli/commands/globals';
import { callTool } from '../../src/cli/mcp/call';
import { toolOf } from '../../src/cli/mcp/tools';
import { CONTRACTS } from '../../src/contracts';
import { globals } from '../../src/contracts/globals';
import { openapiDocument } from '../../src/openapi/document';
import { inProcessService, type InProcessService } from '../../src/runtimes/in-process';
import { launchSettings } from '../../src/runtimes/launcher/settings';
import { nodeSql } from '../../storage/sql/node-sql';

/**
 * "Renaming a route's path in its declaration changes every surface and breaks nothing": the globals
 * family is declared here under another path, and the server, the OpenAPI document, the MCP tools,
 * the CLI's client and its `lpa globals` command all follow, with no other change. The web console,
 * typed from the contracts rather than run from them, fails its type check instead
 * (./contract-rename-console.test.ts).
 */
vi.mock('../../src/contracts/globals', async (importOriginal) => {
  const { globals } = await importOriginal<typeof import('../../src/contracts/globals')>();
  const renamed = (path: string) => path.replace('/api/v1/automation/globals', '/api/v1/renamed-globals');
  return {
    globals: Object.fromEntries(
      Object.entries(globals).map(([name, contract]) => [name, { ...contract, path: renamed(contract.path) }]),
    ),
  };
});

const NEW = '/api/v1/renamed-globals/:name';
const OLD = '/api/v1/automation/globals/:name';
const PORT = 8719;
const BASE_URL = `http://127.0.0.1:${PORT}`;
const TEST_ADMIN_TOKEN = 'lpa_rename-test-admin-token-0123456789';
const requested: string[] = [];
const stops: (() => unknown)[] = [];
let serve: InProcessService;
/** Where the CLI's client and the MCP tools reach that service: over HTTP, as they reach a running one. */
let clientUrl: string;

/** One request to the service, as it arrives from a local client (the Host header included). */
const service = {
  fetch: (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('host', new URL(BASE_URL).host);
    return serve(new Request(url, { ...init, headers }), '127.0.0.1');
  },
};

beforeAll(async () => {
  // The service in this process, as Bun and Deno run it (src/runtimes/in-process.ts), on node:sqlite.
  const dataRoot = mkdtempSync(join(tmpdir(), 'lpa-rename-'));
  const settings = launchSettings({
    LPA_DATA_ROOT: dataRoot,
    LPA_PORT: String(PORT),
    LPA_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  });
  const database = new DatabaseSync(join(dataRoot, 'store.sqlite'));
  stops.push(() => database.close());
  serve = await inProcessService(
    nodeSql(database),
    {
      settings,
      version: '0.0.0',
      storeDir: dataRoot,
      onStop: (step) => void stops.push(step),
      fail: (reason) => {
        throw new Error(reason);
      },
    },
    // No browser runs here, so no WebSocket is ever asked for.
    () => null,
  );
  // The CLI's client and the MCP tools talk HTTP: a server on a free port hands each request to that
  // service as if it came to its own port, and records what was asked.
  const server = createServer(
    getRequestListener((request) => {
      const { pathname, search } = new URL(request.url);
      requested.push(`${request.method} ${pathname}`);
      return service.fetch(`${BASE_URL}${pathname}${search}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        duplex: 'half',
      } as RequestInit);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise((resolve) => server.close(resolve)));
  clientUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

describe('a route renamed in its contract', () => {
  it('is declared under its new path only', () => {
    expect(globals.write.path).toBe(NEW);
    expect(CONTRACTS.filter((contract) => contract.path.startsWith('/api/v1/automation/globals'))).toEqual([]);
  });

  it('is described under its new path by the OpenAPI document and the MCP tool', () => {
    const paths = openapiDocument(CONTRACTS, BASE_URL).paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/api/v1/renamed-globals/{name}']!).sort()).toEqual(['delete', 'get', 'put']);
    expect(paths['/api/v1/automation/globals/{name}']).toBeUndefined();
    expect(toolOf(globals.write).name).toBe('putRenamedGlobalsByName');
    expect(toolOf(globals.write).description).toContain(`PUT ${NEW}.`);
  });

  it('is served under its new path, and the old one is gone', async () => {
    const client = new ApiClient(clientUrl, TEST_ADMIN_TOKEN);
    const written = await client.api(globals.write, {
      params: { name: 'renamed' },
      body: { value: 'v1', expected_revision: 0 },
    });
    expect(written).toMatchObject({ name: 'renamed', revision: 1 });
    expect(await client.api(globals.read, { params: { name: 'renamed' } })).toEqual({ value: 'v1', revision: 1 });
    const old = await service.fetch(`${BASE_URL}${OLD.replace(':name', 'renamed')}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(old.status).toBe(404);
    expect(((await old.json()) as { error: { code: string } }).error.code).toBe('route.not_found');
  });

  it('is called at its new path by the MCP tool', async () => {
    const client = new ApiClient(clientUrl, TEST_ADMIN_TOKEN, 'mcp');
    requested.length = 0;
    const result = await callTool(client, toolOf(globals.read), { name: 'renamed' });
    expect(result.isError).toBeUndefined();
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ value: 'v1', revision: 1 });
    expect(requested).toEqual(['GET /api/v1/renamed-globals/renamed']);
  });

  it('is called at its new path by `lpa globals`', async () => {
    vi.stubEnv('LPA_URL', clientUrl);
    vi.stubEnv('LPA_TOKEN', TEST_ADMIN_TOKEN);
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((text) => printed.push(String(text)) > 0);
    try {
      const program = new Command('lpa').exitOverride();
      globalsCommand(program.command('globals'));
      requested.length = 0;
      await program.parseAsync(['globals', 'set', 'renamed', 'v2', '--revision', '1', '--json'], { from: 'user' });
      await program.parseAsync(['globals', 'get', 'renamed', '--json'], { from: 'user' });
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(requested).toEqual(['PUT /api/v1/renamed-globals/renamed', 'GET /api/v1/renamed-globals/renamed']);
    expect(JSON.parse(printed[1]!)).toEqual({ value: 'v2', revision: 2 });
  });
});
