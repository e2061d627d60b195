import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzValue, type JsonSchema } from '../support/fuzz/schema-values';

/** Every character of a generated value, counted without building its JSON (which is what overflowed). */
function charCount(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + charCount(item), 0);
  if (value && typeof value === 'object')
    return Object.entries(value).reduce((sum, [key, item]) => sum + key.length + charCount(item), 0);
  return 8;
}

describe('the fuzz generator (test/support/fuzz)', () => {
  it('keeps a value small enough to send: edge counts of a long array do not repeat megabytes of text', () => {
    // A flow's steps (up to 10,000) of text up to 1 MiB: the shape whose 10,001 copies of a 1 MiB
    // string made JSON.stringify throw RangeError: Invalid string length in the route fuzzing.
    const schema: JsonSchema = { type: 'array', maxItems: 10_000, items: { type: 'string', maxLength: 1_048_576 } };
    const ctx = { resolve: () => ({}), knownIds: () => [] };
    const largest = Math.max(...fc.sample(fuzzValue(schema, ctx), { seed: 1, numRuns: 300 }).map(charCount));
    expect(largest).toBeLessThan(16 * 1_048_576);
  });
});
