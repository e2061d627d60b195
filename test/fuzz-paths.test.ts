import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { CONTRACTS } from '../src/contracts';
import { checkRequest } from './support/fuzz/check';
import type { Caller, FuzzRequest } from './support/fuzz/requests';
import { fuzzRuns, seed } from './support/fuzz/seed';
import { rawUrlText } from './support/fuzz/values';

const RUNS = fuzzRuns(150);

/** The declared paths cut into segments, to be shuffled, cut short, doubled and corrupted. */
const SEGMENTS = [...new Set(CONTRACTS.flatMap((r) => r.path.split('/').filter(Boolean)))];

const oddPath = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...SEGMENTS) },
      { weight: 2, arbitrary: rawUrlText() },
      { weight: 1, arbitrary: fc.constant('') },
    ),
    {
      minLength: 0,
      maxLength: 8,
    },
  )
  .map((parts) => `/${parts.join('/')}`);

/** A declared path with one segment replaced: the router's edges, near the routes that exist. */
const nearPath = fc
  .tuple(fc.constantFrom(...CONTRACTS.map((r) => r.path.split('/'))), fc.nat(), rawUrlText())
  .map(([parts, at, odd]) =>
    parts.map((p, i) => (i === 1 + (at % (parts.length - 1)) ? odd : p.startsWith(':') ? 'x' : p)).join('/'),
  );

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
  target: fc.oneof(oddPath, nearPath),
  caller: fc.constantFrom<Caller>('admin', 'admin', 'none'),
  headers: fc.constant({}),
}) satisfies fc.Arbitrary<FuzzRequest>;

describe('fuzzing paths and methods', () => {
  let tokens: Record<Caller, string | null>;
  beforeAll(async () => {
    ({ tokens } = await seed());
  });

  it('no 5xx, no hang, the envelope, nothing stored when refused', { timeout: 60_000 + RUNS * 1_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(request, (r) => checkRequest(r, tokens)),
      { numRuns: RUNS },
    );
  });
});
