import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiCallError, type ApiClient, type Query } from '../client';
import type { ApiTool } from './tools';

const text = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError } : {}) });

/**
 * Calls a tool's operation on the service: the arguments go to the path, the query or the body as
 * the route declares them. A refusal is a tool error carrying the error envelope (code, message and
 * the HTTP status), so that the agent sees why and can correct itself.
 */
export async function callTool(client: ApiClient, tool: ApiTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const params: Record<string, unknown> = {};
  const query: Query = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const place = tool.places[name];
    // An argument the route does not take is sent in the body or query as it came, so that the service refuses it with its own message.
    if (place === 'path') params[name] = value;
    else if (place === 'query' || (!place && !tool.contract.body)) query[name] = typeof value === 'object' ? JSON.stringify(value) : (value as Query[string]);
    else body[name] = value;
  }
  try {
    const answer = await client.request(tool.contract, { params, query, body: tool.contract.body ? body : undefined });
    return text(answer ?? { ok: true });
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error;
    return text({ error: { code: error.code, message: error.message, status: error.status } }, true);
  }
}
