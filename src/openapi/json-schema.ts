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
    const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const hoisted = rewriteRefs(def) as JsonSchema;
      const known = this.components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(hoisted)) {
        throw new Error(`Two different schemas are both named ${id} (one as ${io}): give them different ids`);
      }
      this.components[id] = hoisted;
    }
    return rewriteRefs(rest) as JsonSchema;
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string' && v.startsWith(DEFS) ? COMPONENTS + v.slice(DEFS.length) : rewriteRefs(v),
    ]),
  );
}
