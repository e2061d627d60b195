import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/**
 * Converts zod schemas into JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Schemas that carry a
 * `meta({ id })` are hoisted once into `components.schemas` and referenced from everywhere else.
 */
export class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $schema: _,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const hoisted = normalize(def) as JsonSchema;
      const known = this.components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(hoisted)) {
        throw new Error(`Two different schemas are both named ${id} (one as ${io}): give them different ids`);
      }
      this.components[id] = hoisted;
    }
    return normalize(rest) as JsonSchema;
  }
}

const INT32 = 2 ** 31;

/** The OpenAPI format of an integer: int32 when its bounds fit in 32 bits, int64 otherwise (all are safe integers). */
function integerFormat(schema: Record<string, unknown>): string {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  return minimum !== undefined && maximum !== undefined && minimum >= -INT32 && maximum < INT32 ? 'int32' : 'int64';
}

/** Points `$defs` references at `components.schemas`, and gives every integer its OpenAPI format. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== 'object') return value;
  const typed = value as Record<string, unknown>;
  const integer = typed.type === 'integer' && typed.format === undefined ? { format: integerFormat(typed) } : {};
  return Object.fromEntries(
    [...Object.entries(value), ...Object.entries(integer)].map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string' && v.startsWith(DEFS) ? COMPONENTS + v.slice(DEFS.length) : normalize(v),
    ]),
  );
}
