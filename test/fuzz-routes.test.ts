import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS } from '../src/contracts';
import { checkRequest } from './support/fuzz/check';
import type { Caller } from './support/fuzz/requests';
import { fuzzTargets } from './support/fuzz/requests';
import { fuzzRuns, seed } from './support/fuzz/seed';

/** Per route; about half a minute for all routes on this machine. FUZZ_RUNS raises it. */
const RUNS = fuzzRuns(12);

describe('fuzzing every declared route', () => {
  let knownIds: string[] = [];
  let tokens: Record<Caller, string | null>;
  beforeAll(async () => {
    ({ knownIds, tokens } = await seed());
  });

  const targets = fuzzTargets(() => knownIds);

  it('covers the whole route table', () => {
    expect(targets.map((t) => t.name)).toEqual(CONTRACTS.map((r) => `${r.method} ${r.path}`));
  });

  it.each(targets.map((t) => [t.name, t] as const))(
    '%s: no 5xx, no hang, the envelope, nothing stored when refused',
    { timeout: 60_000 + RUNS * 5_000 },
    async (_, target) => {
      await fc.assert(
        fc.asyncProperty(target.request, (request) => checkRequest(request, tokens)),
        { numRuns: RUNS },
      );
    },
  );
});
