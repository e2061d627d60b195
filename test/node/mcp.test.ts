import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from './api-client';
import { startService, type RunningService } from './service';

let service: RunningService;
let admin: ApiClient;
const clients: Client[] = [];

const BIN = join(process.cwd(), 'bin/lpa.mjs');
const mcpEnv = (token: string) => ({
  ...(process.env as Record<string, string>),
  LPA_URL: `http://127.0.0.1:${service.port}`,
  LPA_DATA_ROOT: service.dataRoot,
  LPA_TOKEN: token,
});

/** `lpa mcp` spawned by the SDK's own client, as an agent's host runs it. */
async function connect(token: string, flags: string[] = []): Promise<Client> {
  const client = new Client({ name: 'lpa-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...flags],
    env: mcpEnv(token),
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** `lpa mcp` spoken to line by line: initialize, then `lines`; resolves with every answer once each request has one. */
function rawCalls(token: string, lines: string[]): Promise<any[]> {
  const child = spawn(process.execPath, [BIN, 'mcp'], { env: mcpEnv(token), stdio: ['pipe', 'pipe', 'ignore'] });
  const answers: any[] = [];
  let buffered = '';
  const done = new Promise<any[]>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const parts = (buffered + chunk.toString('utf8')).split('\n');
      buffered = parts.pop()!;
      answers.push(...parts.filter(Boolean).map((part) => JSON.parse(part)));
      if (answers.length === lines.length + 1) {
        child.kill();
        resolve(answers);
      }
    });
  });
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  child.stdin.write(
    `${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${lines.join('\n')}\n`,
  );
  return done;
}

async function tokenWith(scopes: string[]): Promise<string> {
  const created = await admin('/api/v1/tokens', {
    method: 'POST',
    body: { name: `mcp-${scopes.join('-') || 'none'}`, scopes },
  });
  expect(created.status).toBe(201);
  return created.json.token;
}

/** The JSON a tool answered. */
function answerOf(result: Awaited<ReturnType<Client['callTool']>>): any {
  const [first] = result.content as { type: string; text: string }[];
  expect(first?.type).toBe('text');
  return JSON.parse(first!.text);
}

beforeAll(async () => {
  service = await startService('workerd');
  admin = apiClient(service.port, service.token);
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await service?.stop();
});

describe('lpa mcp', () => {
  it('refuses to start without LPA_TOKEN (empty or unset) and names the way out; takes the admin token only with --admin', async () => {
    const { LPA_TOKEN: _unset, ...withoutToken } = mcpEnv('');
    for (const env of [mcpEnv(''), withoutToken]) {
      const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
        const child = execFile(process.execPath, [BIN, 'mcp'], { env }, (error, _stdout, stderr) =>
          resolve({ code: Number(error?.code ?? 0), stderr }),
        );
        child.stdin?.end();
      });
      expect(run.code).toBe(5);
      expect(run.stderr).toContain('cli.token_missing');
      expect(run.stderr).toContain('LPA_TOKEN');
      expect(run.stderr).toContain('--admin');
    }
    const asAdmin = await connect('', ['--admin']);
    expect((await asAdmin.listTools()).tools.map((t) => t.name)).toContain(
      'getProfilesByIdAccountsByAccountIdPassword',
    );
  });

  it('offers one tool per operation, named by operationId, with its summary and input schema; secret tools only with their scope', async () => {
    const document = (await admin('/api/v1/openapi.json')).json;
    const operations = Object.values(
      document.paths as Record<
        string,
        Record<string, { operationId: string; summary: string; security: { bearerAuth: string[] }[] }>
      >,
    ).flatMap((methods) => Object.values(methods));
    const isSecret = (op: (typeof operations)[number]) =>
      op.security.some((s) => s.bearerAuth.some((scope) => scope.startsWith('secrets:')));

    const everything = await connect(service.token);
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(everything.getServerVersion()).toMatchObject({ name: 'lpa', version });
    const all = (await everything.listTools()).tools;
    expect(all.map((t) => t.name).sort()).toEqual(operations.map((op) => op.operationId).sort());
    for (const op of operations) {
      const tool = all.find((t) => t.name === op.operationId)!;
      expect(tool.description).toContain(op.summary);
      expect(tool.inputSchema.type).toBe('object');
    }
    const listing = all.find((t) => t.name === 'getProfiles')!;
    // Defaults make fields optional; no query field is required.
    expect(listing.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(listing.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'sort']),
    );
    const update = all.find((t) => t.name === 'patchProfilesById')!;
    expect(update.inputSchema.required).toEqual(['id']);
    expect(Object.keys(update.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['id', 'name', 'tags']));
    expect(update.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });

    const plain = await connect(await tokenWith(['profiles:read', 'profiles:write', 'audit:read']));
    const offered = (await plain.listTools()).tools.map((t) => t.name).sort();
    expect(offered).toEqual(
      operations
        .filter((op) => !isSecret(op))
        .map((op) => op.operationId)
        .sort(),
    );
    expect(offered).not.toContain('getProfilesByIdAccountsByAccountIdPassword');
    expect(offered).not.toContain('getAutomationGlobalsByName');

    const totpOnly = await connect(await tokenWith(['secrets:totp']));
    const totpTools = (await totpOnly.listTools()).tools.map((t) => t.name);
    expect(totpTools).toContain('getProfilesByIdAccountsByAccountIdTotp');
    expect(totpTools).not.toContain('getProfilesByIdAccountsByAccountIdPassword');
  });

  it('writes nothing to the audit log at start: the scopes come from the token itself, not from probes', async () => {
    const newest = async () => (await admin('/api/v1/audit?limit=1')).json.items[0];
    const scoped = [await tokenWith(['profiles:read']), await tokenWith(['secrets:totp'])];
    const before = await newest();
    for (const token of [...scoped, service.token]) {
      const agent = await connect(token);
      expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
    }
    expect(await newest()).toEqual(before);
  });

  it('calls a write and a read; a scope refusal is a tool error with the envelope code; the audit log shows source mcp', async () => {
    const agent = await connect(await tokenWith(['profiles:read', 'profiles:write']));
    const created = await agent.callTool({ name: 'postProfiles', arguments: { name: 'made-by-agent', tags: ['mcp'] } });
    expect(created.isError).toBeFalsy();
    const profile = answerOf(created);
    expect(profile).toMatchObject({ id: expect.any(String), name: 'made-by-agent', tags: ['mcp'] });

    const read = await agent.callTool({ name: 'getProfilesById', arguments: { id: profile.id } });
    expect(answerOf(read)).toEqual(profile);
    const listed = answerOf(await agent.callTool({ name: 'getProfiles', arguments: { limit: 5, q: 'made-by-agent' } }));
    expect(listed.items.map((p: { id: string }) => p.id)).toEqual([profile.id]);

    const refused = await agent.callTool({ name: 'getAutomationGlobals', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(answerOf(refused)).toMatchObject({ error: { code: 'auth.scope_missing', status: 403 } });

    const invalid = await agent.callTool({ name: 'postProfiles', arguments: { name: '' } });
    expect(invalid.isError).toBe(true);
    expect(answerOf(invalid)).toMatchObject({
      error: {
        code: 'request.invalid',
        message: expect.any(String),
        status: 400,
        details: { issues: [expect.objectContaining({ in: 'body', path: ['name'] })] },
      },
      request_id: expect.any(String),
    });

    const audit = (await admin('/api/v1/audit?source=mcp&limit=100')).json.items as {
      action: string;
      result: string;
      entity_id: string | null;
    }[];
    expect(audit).toContainEqual(
      expect.objectContaining({ action: 'profiles.create', result: 'ok', entity_id: profile.id }),
    );
    expect(audit).toContainEqual(expect.objectContaining({ action: 'auth.denied', result: 'denied' }));
  });

  it('reads a secret through its tool when the token holds the scope', async () => {
    const profile = (await admin('/api/v1/profiles', { method: 'POST', body: { name: 'with-account' } })).json;
    const account = (
      await admin(`/api/v1/profiles/${profile.id}/accounts`, {
        method: 'POST',
        body: { platform_url: 'https://example.com', password: 'hunter2' },
      })
    ).json;
    const agent = await connect(await tokenWith(['secrets:read']));
    const answer = await agent.callTool({
      name: 'getProfilesByIdAccountsByAccountIdPassword',
      arguments: { id: profile.id, accountId: account.id },
    });
    expect(answerOf(answer)).toEqual({ password: 'hunter2' });
  });

  it('refuses a path parameter that is not one segment, before any request: the profile stays', async () => {
    const profile = (await admin('/api/v1/profiles', { method: 'POST', body: { name: 'dot-segments' } })).json;
    const agent = await connect(await tokenWith(['profiles:read', 'profiles:write']));
    for (const accountId of ['..', '.', '', 'a/b', '%2e%2e', '%2E.', '%2F', 'x%2fy', '..\\x', 'x\\y']) {
      const refused = await agent.callTool({
        name: 'deleteProfilesByIdAccountsByAccountId',
        arguments: { id: profile.id, accountId },
      });
      expect(refused.isError, accountId).toBe(true);
      expect(answerOf(refused).error, accountId).toMatchObject({
        code: 'mcp.argument_invalid',
        details: { field: 'accountId' },
      });
    }
    const dots = await agent.callTool({ name: 'deleteProfilesById', arguments: { id: '..' } });
    expect(answerOf(dots).error.code).toBe('mcp.argument_invalid');
    expect((await admin(`/api/v1/profiles/${profile.id}`)).status).toBe(200);
    // A real single segment still reaches the service, which answers for it.
    const missing = await agent.callTool({
      name: 'deleteProfilesByIdAccountsByAccountId',
      arguments: { id: profile.id, accountId: 'no-such-account' },
    });
    expect(answerOf(missing).error.status).toBe(404);
  });

  it('refuses arguments the tool does not take, inherited names included, instead of dropping them', async () => {
    const agent = await connect(await tokenWith(['profiles:read', 'profiles:write']));
    const before = (await admin('/api/v1/profiles?limit=100')).json.items.length;
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'nonsense']) {
      for (const tool of ['getProfiles', 'postProfiles']) {
        const args = JSON.parse(`{"name": "unknown-args", ${JSON.stringify(name)}: "x"}`);
        if (tool === 'getProfiles') delete args.name;
        const refused = await agent.callTool({ name: tool, arguments: args });
        expect(refused.isError, `${tool} ${name}`).toBe(true);
        expect(answerOf(refused).error, `${tool} ${name}`).toMatchObject({
          code: 'mcp.argument_invalid',
          details: { fields: [name] },
        });
      }
    }
    // The SDK's client drops a `__proto__` key before sending, so this one goes as raw JSON-RPC lines.
    const raw = await rawCalls(await tokenWith(['profiles:read', 'profiles:write']), [
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"postProfiles","arguments":{"name":"unknown-args","__proto__":{"admin":true}}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"getProfiles","arguments":{"__proto__":"x"}}}',
    ]);
    for (const id of [2, 3]) {
      const answer = raw.find((message) => message.id === id);
      expect(answer?.result.isError, `request ${id}`).toBe(true);
      expect(JSON.parse(answer.result.content[0].text).error).toMatchObject({
        code: 'mcp.argument_invalid',
        details: { fields: ['__proto__'] },
      });
    }
    expect((await admin('/api/v1/profiles?limit=100')).json.items.length).toBe(before);
  });

  it('answers an unknown tool with a protocol error', async () => {
    const agent = await connect(service.token);
    await expect(agent.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toThrow(/Unknown tool: noSuchTool/);
  });
});
