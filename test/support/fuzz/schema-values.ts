import fc from 'fast-check';
import { anyJson, nastyNumber, nastyString } from './values';

export type JsonSchema = Record<string, any>;

export interface SchemaContext {
  /** Resolves a `$ref` of the OpenAPI document. */
  resolve: (ref: string) => JsonSchema;
  /** Ids of things that exist, so that some requests reach past the "not found" answers. */
  knownIds: () => readonly string[];
}

/** A field that is left out of its object. */
const MISSING = Symbol('missing');
const MAX_DEPTH = 4;

/**
 * Values for a JSON schema that sit on and just past its edges, plus values of the wrong type: near
 * enough to valid that the request gets deep into the handler, wrong enough to be refused there.
 */
export function fuzzValue(schema: JsonSchema, ctx: SchemaContext, depth = 0): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return anyJson();
  return fc.oneof(
    // A valid value with one thing wrong (or nothing): refusals deep in the handler, and successes.
    { weight: 4, arbitrary: oneMutation(schema, ctx, depth) },
    { weight: 2, arbitrary: nearValid(schema, ctx, depth) },
    { weight: 1, arbitrary: anyJson() },
  );
}

const resolved = (schema: JsonSchema, ctx: SchemaContext): JsonSchema =>
  typeof schema.$ref === 'string' ? resolved(ctx.resolve(schema.$ref), ctx) : schema;

/** A value the schema accepts, as far as JSON Schema can say (refinements in code may still refuse it). */
export function validValue(schema: JsonSchema, ctx: SchemaContext, depth = 0): fc.Arbitrary<unknown> {
  schema = resolved(schema, ctx);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => validValue(b, ctx, depth)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type: string) => validValue({ ...schema, type }, ctx, depth)));
  switch (schema.type) {
    case 'string': {
      const min: number = schema.minLength ?? 0;
      const plain = schema.pattern
        ? fc.stringMatching(new RegExp(schema.pattern))
        : fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(min, Math.min(schema.maxLength ?? 24, 24)) });
      const known = ctx.knownIds().filter((id) => id.length >= min && id.length <= (schema.maxLength ?? Infinity));
      return known.length ? fc.oneof(plain, fc.constantFrom(...known)) : plain;
    }
    case 'integer':
    case 'number':
      return fc.integer({
        min: Math.ceil(schema.minimum ?? 0),
        max: Math.floor(Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER)),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = depth > MAX_DEPTH ? fc.constant({}) : validValue(schema.items ?? {}, ctx, depth + 1);
      const size = {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      };
      return fc.uniqueArray(item, { ...size, selector: (v) => JSON.stringify(v) });
    }
    case 'object': {
      const required = new Set<string>(schema.required ?? []);
      const fields = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) =>
        (required.has(name)
          ? validValue(property, ctx, depth + 1)
          : fc.option(validValue(property, ctx, depth + 1), { nil: MISSING, freq: 2 })
        ).map((v) => [name, v] as const),
      );
      return fc.tuple(...fields).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== MISSING)));
    }
    default:
      return fc.oneof(fc.constant({}), fc.constant('x'), fc.constant(1));
  }
}

/** A valid value, then at most one change: a field dropped, added or made wrong, or an item made wrong. */
function oneMutation(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  schema = resolved(schema, ctx);
  const names = Object.keys(schema.properties ?? {});
  if (schema.type === 'object' && names.length) {
    return fc.tuple(validValue(schema, ctx, depth), fc.nat(names.length + 1)).chain(([valid, at]) => {
      const base = valid as Record<string, unknown>;
      if (at === names.length + 1) return fc.constant(base);
      if (at === names.length) return fc.constant({ ...base, unexpected_field: 1 });
      const name = names[at]!;
      return fc.option(fuzzValue(schema.properties[name], ctx, depth + 1), { nil: MISSING, freq: 4 }).map((wrong) => {
        const { [name]: _, ...rest } = base;
        return wrong === MISSING ? rest : { ...rest, [name]: wrong };
      });
    });
  }
  if (schema.type === 'array' && schema.items) {
    return fc
      .tuple(validValue(schema, ctx, depth) as fc.Arbitrary<unknown[]>, fuzzValue(schema.items, ctx, depth + 1))
      .map(([valid, wrong]) => (valid.length ? valid.map((v, i) => (i === 0 ? wrong : v)) : [wrong]));
  }
  return fc.oneof(validValue(schema, ctx, depth), nearValid(schema, ctx, depth));
}

function nearValid(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return nearValid(ctx.resolve(schema.$ref), ctx, depth);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => nearValid(b, ctx, depth)));
  if (Array.isArray(schema.enum))
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...schema.enum) }, nastyString());
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type: string) => nearValid({ ...schema, type }, ctx, depth)));
  switch (schema.type) {
    case 'string':
      return stringValue(schema, ctx);
    case 'integer':
    case 'number':
      return numberValue(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayValue(schema, ctx, depth);
    case 'object':
      return objectValue(schema, ctx, depth);
    default:
      return anyJson();
  }
}

function stringValue(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<string> {
  const min: number = schema.minLength ?? 0;
  const max: number | undefined = schema.maxLength;
  const lengths = [...new Set([min, Math.max(0, min - 1), ...(max === undefined ? [] : [max, max + 1])])];
  const plausible = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern))
    : fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max ?? 24, 24)) });
  return fc.oneof(
    { weight: 3, arbitrary: plausible },
    { weight: 2, arbitrary: fc.constantFrom(...lengths).map((n) => 'a'.repeat(n)) },
    { weight: 2, arbitrary: nastyString() },
    {
      weight: 2,
      arbitrary: fc
        .constant(null)
        .chain(() => (ctx.knownIds().length ? fc.constantFrom(...ctx.knownIds()) : plausible)),
    },
  );
}

function numberValue(schema: JsonSchema): fc.Arbitrary<number> {
  const min: number | undefined = schema.minimum ?? schema.exclusiveMinimum;
  const max: number | undefined = schema.maximum ?? schema.exclusiveMaximum;
  const edges = [min, max, min === undefined ? undefined : min - 1, max === undefined ? undefined : max + 1].filter(
    (n) => n !== undefined,
  );
  const inside = fc.integer({
    min: Math.max(min ?? -1000, Number.MIN_SAFE_INTEGER),
    max: Math.min(max ?? 1000, Number.MAX_SAFE_INTEGER),
  });
  return fc.oneof(
    { weight: 2, arbitrary: inside },
    { weight: 2, arbitrary: edges.length ? fc.constantFrom(...edges) : inside },
    nastyNumber(),
  );
}

function arrayValue(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown[]> {
  const item = schema.items ? fuzzValue(schema.items, ctx, depth + 1) : anyJson();
  const min: number = schema.minItems ?? 0;
  const max: number | undefined = schema.maxItems;
  const counts = [...new Set([min, Math.max(0, min - 1), ...(max === undefined ? [] : [max, max + 1])])];
  // At an edge count the element is a valid one, which is small: a fuzzed one may be a megabyte of
  // text, and 10,001 copies of it (a flow's steps) are more than a string can hold, so the request's
  // JSON.stringify threw RangeError: Invalid string length now and then.
  const small = validValue(schema.items ?? {}, ctx, depth + 1);
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(item, { minLength: min, maxLength: Math.max(min, Math.min(max ?? 4, 4)) }) },
    // Edge counts, every element the same: duplicates where items must be unique.
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...counts), small).map(([n, v]) => Array.from({ length: n }, () => v)),
    },
    { weight: 1, arbitrary: fc.array(item, { minLength: 1, maxLength: 3 }).map((a) => [...a, a[0]]) },
  );
}

function objectValue(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const required = new Set<string>(schema.required ?? []);
  const fields = properties.map(([name, property]) =>
    // Required fields are dropped now and then, optional ones more often.
    fc
      .option(fuzzValue(property, ctx, depth + 1), { nil: MISSING, freq: required.has(name) ? 12 : 3 })
      .map((v) => [name, v] as const),
  );
  const extra = fc.dictionary(
    fc.oneof(fc.constantFrom('extra', '__proto__', 'constructor', ''), fc.string({ maxLength: 8 })),
    anyJson(),
    { maxKeys: 2 },
  );
  const additional = schema.additionalProperties;
  return fc
    .tuple(
      fc.tuple(...fields),
      fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra }),
      typeof additional === 'object' ? extra : fc.constant({}),
    )
    .map(([declared, ...extras]) => {
      // A null prototype keeps `__proto__` an ordinary key that JSON.stringify writes out.
      const out: Record<string, unknown> = Object.create(null);
      for (const [name, value] of declared) if (value !== MISSING) out[name] = value;
      for (const more of extras)
        for (const [name, value] of Object.entries(more)) if (!(name in out)) out[name] = value;
      return out;
    });
}
