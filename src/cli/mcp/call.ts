import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiCallError, type ApiClient, type Query } from '../client';
import type { ApiTool } from './tools';

const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(isError ? { isError } : {}),
});

/** A refusal made here, before any request, in the shape of the service's error envelope. */
const refusal = (message: string, details: Record<string, unknown>): CallToolResult =>
  text({ error: { code: 'mcp.argument_invalid', message, details, status: 0 } }, true);

/** Why a value cannot be one path segment, or null when it can. */
function segmentProblem(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return 'must be a string';
  const raw = String(value);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return 'is not valid percent-encoding';
  }
  // The URL parser resolves dot segments and a service decodes %2F: either would send the call to another route.
  for (const form of [raw, decoded]) {
    if (form === '' || form === '.' || form === '..') return 'must not be empty, "." or ".."';
    if (/[/\\]/.test(form)) return 'must not contain "/" or "\\", also percent-encoded';
  }
  return null;
}

/**
 * Calls a tool's operation on the service: the arguments go to the path, the query or the body as
 * the route declares them. An argument the route does not take, or a path parameter that is not one
 * path segment, is refused here before any request; `sentNames` are the argument names as the client
 * sent them (./argument-names.ts), `__proto__` included. A refusal is a tool error carrying the error
 * envelope (code, message, details and the HTTP status), so that the agent sees why and can correct itself.
 */
export async function callTool(
  client: ApiClient,
  tool: ApiTool,
  args: Record<string, unknown>,
  sentNames: readonly string[] = [],
): Promise<CallToolResult> {
  const params: Record<string, unknown> = {};
  const query: Query = {};
  const body: Record<string, unknown> = {};
  const unknown = [...new Set([...sentNames, ...Object.keys(args)])].filter(
    (name) => !Object.hasOwn(tool.places, name),
  );
  if (unknown.length)
    return refusal(`${tool.name} takes no argument ${unknown.map((name) => JSON.stringify(name)).join(', ')}`, {
      fields: unknown,
    });
  for (const [name, value] of Object.entries(args)) {
    const place = tool.places[name];
    if (place === 'path') {
      const problem = segmentProblem(value);
      if (problem) return refusal(`${name} ${problem}`, { field: name });
      params[name] = value;
    } else if (place === 'query')
      query[name] = typeof value === 'object' ? JSON.stringify(value) : (value as Query[string]);
    else body[name] = value;
  }
  try {
    const answer = await client.request(tool.contract, { params, query, body: tool.contract.body ? body : undefined });
    return text(answer ?? { ok: true });
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error;
    return text({ ...error.envelope, error: { ...error.envelope.error, status: error.status } }, true);
  }
}
