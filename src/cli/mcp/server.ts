import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CONTRACTS } from '../../contracts';
import { ApiClient } from '../client';
import { VERSION } from '../version';
import { ArgumentNames } from './argument-names';
import { callTool } from './call';
import { heldSecretScopes } from './secret-scopes';
import { secretScopesOf, toolOf, type ApiTool } from './tools';

/** The tools this token may see: every operation, except those handing out a secret whose scope the token lacks. */
export async function offeredTools(client: ApiClient): Promise<ApiTool[]> {
  const held = await heldSecretScopes(client);
  return CONTRACTS.filter((contract) => secretScopesOf(contract).every((scope) => held.has(scope))).map(toolOf);
}

/**
 * `lpa mcp`: a Model Context Protocol server on stdio. Each tool calls the running service over
 * HTTP with LPA_URL and LPA_TOKEN, so the token's scopes bound what an agent may do and every call
 * is audited with source 'mcp'. Without LPA_TOKEN it takes the admin token only when `admin` says so.
 */
export async function runMcpServer(env: NodeJS.ProcessEnv, { admin }: { admin: boolean }): Promise<void> {
  const client = ApiClient.fromEnv(env, 'mcp', { adminFallback: admin });
  const tools = await offeredTools(client);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  // The JSON Schemas come from the route contracts, so the SDK's low-level handlers serve them as they are.
  const mcp = new McpServer({ name: 'lpa', version: VERSION }, { capabilities: { tools: {} } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema, annotations }) => ({
      name,
      description,
      inputSchema,
      annotations,
    })),
  }));
  const sent = new ArgumentNames();
  mcp.server.setRequestHandler(CallToolRequestSchema, (request, { requestId }) => {
    const names = sent.take(requestId);
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(client, tool, request.params.arguments ?? {}, names);
  });
  await mcp.connect(new StdioServerTransport(sent.watch(process.stdin)));
}
