import { z } from 'zod';
import { operationId } from '../../openapi/document';
import { isReadOnly, isRemoval, type Contract } from '../../contracts/define';
import type { Scope } from '../../shared/scopes';

type JsonSchema = Record<string, unknown>;

/** Where each argument of a tool goes in the HTTP request. */
type Place = 'path' | 'query' | 'body';

/** One API operation as an MCP tool. */
export interface ApiTool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: false };
  contract: Contract;
  places: Record<string, Place>;
}

/** Scopes whose routes hand out secrets (passwords, 2FA codes, global values): offered only to a token that holds them. */
export const SECRET_SCOPES: readonly Scope[] = ['secrets:read', 'secrets:totp'];

export const secretScopesOf = (contract: Contract): Scope[] =>
  (contract.scopes ?? []).filter((scope: Scope) => SECRET_SCOPES.includes(scope));

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
  $defs?: Record<string, unknown>;
}

/**
 * A zod object schema as JSON Schema, as a client sends it (io 'input': a field with a default is
 * optional). A schema named with `.meta({ id })` converts to a `$ref` into its `$defs`: its object is
 * taken from there, so its fields become the tool's own.
 */
function objectSchemaOf(schema: z.ZodType): ObjectSchema {
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as ObjectSchema & { $ref?: string };
  const { $ref, $defs = {}, ...rest } = converted;
  if (!$ref) return converted;
  const name = $ref.replace('#/$defs/', '');
  const { [name]: root, ...others } = $defs;
  return { ...(root as ObjectSchema), ...rest, ...(Object.keys(others).length ? { $defs: others } : {}) };
}

/**
 * The tool's input: the route's path parameters, query and body as one object. The service
 * validates the call; a refusal comes back as a tool error with the envelope's code.
 */
function inputOf(contract: Contract): { schema: ApiTool['inputSchema']; places: Record<string, Place> } {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const defs: Record<string, unknown> = {};
  const places: Record<string, Place> = {};
  for (const [place, schema] of [
    ['path', contract.params],
    ['query', contract.query],
    ['body', contract.body],
  ] as const) {
    if (!schema) continue;
    const converted = objectSchemaOf(schema as z.ZodType);
    for (const [name, property] of Object.entries(converted.properties ?? {})) {
      if (places[name])
        throw new Error(
          `${contract.method} ${contract.path}: "${name}" is both a ${places[name]} and a ${place} field`,
        );
      places[name] = place;
      properties[name] = property;
    }
    required.push(...(converted.required ?? []));
    Object.assign(defs, converted.$defs);
  }
  const schema = {
    type: 'object' as const,
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length ? { $defs: defs } : {}),
  };
  return { schema, places };
}

function descriptionOf(contract: Contract): string {
  const access =
    contract.access === 'public'
      ? 'Needs no token.'
      : contract.access === 'admin'
        ? 'Needs an admin session.'
        : `Scopes: ${(contract.scopes ?? []).join(', ') || 'any token'}.`;
  return [contract.summary, contract.description, `${contract.method} ${contract.path}. ${access}`]
    .filter(Boolean)
    .join('\n\n');
}

export function toolOf(contract: Contract): ApiTool {
  const { schema, places } = inputOf(contract);
  return {
    name: operationId(contract),
    description: descriptionOf(contract),
    inputSchema: schema,
    annotations: { readOnlyHint: isReadOnly(contract), destructiveHint: isRemoval(contract), openWorldHint: false },
    contract,
    places,
  };
}
