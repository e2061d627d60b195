import { inject } from 'vitest';
import { call, tokenWith } from '../api';
import { TEST_ADMIN_TOKEN } from '../constants';
import type { Caller } from './requests';

/** Runs per property: FUZZ_RUNS when given, else the file's bounded default. */
export const fuzzRuns = (fallback: number) => inject('fuzzRuns') || fallback;

async function created(path: string, body: unknown, method = 'POST'): Promise<any> {
  const res = await call(path, { method, body });
  if (res.status >= 300) throw new Error(`seeding ${path} failed: ${res.text}`);
  return res.json;
}

/**
 * One thing of each kind that exists, so that fuzzed requests naming it get past "not found" into
 * the checks behind it, and the tokens the fuzzed callers use.
 */
export async function seed(): Promise<{ knownIds: string[]; tokens: Record<Caller, string | null> }> {
  const profile = await created('/api/v1/profiles', { name: 'fuzz profile', tags: ['fuzz'] });
  const account = await created(`/api/v1/profiles/${profile.id}/accounts`, {
    platform_url: 'https://fuzz.example',
    password: 'pw',
    totp_secret: 'JBSWY3DPEHPK3PXP',
  });
  const flow = await created('/api/v1/automation/flows', {
    name: 'fuzz flow',
    steps: [{ type: 'wait', ms: 0 }],
    values: [{ name: 'v', value: 's', protected: true }],
  });
  await created('/api/v1/automation/globals/fuzz_global', { value: 'fuzz', expected_revision: 0 }, 'PUT');
  const share = await created('/api/v1/automation/shares', {
    ids: [flow.id],
    name: 'fuzz share',
    expires_in_minutes: 60,
    max_uses: 1000,
  });
  const preview = await created('/api/v1/automation/shares/redeem', { code: share.code });
  // Automation files live in the data root that all test files share: a name of its own.
  const file = `fuzz-${crypto.randomUUID()}.txt`;
  await created('/api/v1/automation/files', { name: file, base64: 'ZnV6eg==' });
  // The callers' token is not among the known ids: a fuzzed DELETE would revoke it.
  const scopeless = await tokenWith([]);
  const victim = await tokenWith(['audit:read']);
  return {
    knownIds: [
      profile.id,
      account.id,
      flow.id,
      'fuzz_global',
      share.id,
      share.code,
      preview.ticket,
      file,
      victim.id,
      'core',
      'api',
    ],
    tokens: {
      admin: TEST_ADMIN_TOKEN,
      none: null,
      garbage: 'lpa_not-a-token-of-this-service',
      scopeless: scopeless.token,
    },
  };
}
