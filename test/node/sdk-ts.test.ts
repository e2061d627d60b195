/**
 * packages/sdk-ts as a user's script uses it, against `npm start`: profiles, a platform account whose
 * password a token with `secrets:read` reads and a narrower token is refused, a global's revision
 * conflict, the audit log page by page, and a profile's browser started and stopped.
 */
import { describe, expect, it } from 'vitest';
import { createLpaClient, LpaError, ok } from '../../packages/sdk-ts/src/index';
import { ensureChromium } from './chromium';
import { useService } from './service';

const browser = ensureChromium();
const service = useService('workerd', 'path' in browser ? { LPA_BROWSER: browser.path } : {});
const baseUrl = () => `http://127.0.0.1:${service.current.port}/`;
const admin = () => createLpaClient({ baseUrl: baseUrl(), token: service.current.token });

/** The LpaError a call is refused with. */
async function refusal(call: Promise<unknown>): Promise<LpaError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(LpaError);
  return error as LpaError;
}

describe('the TypeScript SDK (packages/sdk-ts)', () => {
  it('creates and lists profiles; reads a password only with a token that holds secrets:read', async () => {
    const lpa = admin();
    const profile = await ok(lpa.POST('/api/v1/profiles', { body: { name: 'sdk profile', tags: ['sdk'] } }));
    expect(profile).toMatchObject({ name: 'sdk profile', tags: ['sdk'] });
    const listed = await ok(lpa.GET('/api/v1/profiles', { params: { query: { q: 'sdk profile' } } }));
    expect(listed.items.map((p) => p.id)).toEqual([profile.id]);

    const account = await ok(
      lpa.POST('/api/v1/profiles/{id}/accounts', {
        params: { path: { id: profile.id } },
        body: { platform_url: 'https://shop.example', username: 'me', password: 'hunter2' },
      }),
    );
    const onAccount = { params: { path: { id: profile.id, accountId: account.id } } };
    const token = async (scopes: ('profiles:read' | 'secrets:read')[]) =>
      (await ok(lpa.POST('/api/v1/tokens', { body: { name: `sdk ${scopes.join(' ')}`, scopes } }))).token;

    const reader = createLpaClient({ baseUrl: baseUrl(), token: await token(['secrets:read']) });
    const self = await ok(reader.GET('/api/v1/tokens/self'));
    expect(self).toMatchObject({ scopes: ['secrets:read'], admin: false });
    expect(await ok(reader.GET('/api/v1/profiles/{id}/accounts/{accountId}/password', onAccount))).toEqual({
      password: 'hunter2',
    });

    const narrow = createLpaClient({ baseUrl: baseUrl(), token: await token(['profiles:read']) });
    const refused = await refusal(ok(narrow.GET('/api/v1/profiles/{id}/accounts/{accountId}/password', onAccount)));
    expect(refused).toMatchObject({ status: 403, code: 'auth.scope_missing', details: { missing: ['secrets:read'] } });
    expect(refused.requestId).toMatch(/\S/);
  });

  it('answers a stale revision with a typed state.revision_conflict that names the current one', async () => {
    const lpa = admin();
    const named = { params: { path: { name: 'SDK_GLOBAL' } } };
    const first = await ok(
      lpa.PUT('/api/v1/automation/globals/{name}', { ...named, body: { value: 'one', expected_revision: 0 } }),
    );
    expect(first.revision).toBe(1);
    const stale = lpa.PUT('/api/v1/automation/globals/{name}', {
      ...named,
      body: { value: 'two', expected_revision: 0 },
    });
    const conflict = await refusal(ok(stale));
    expect(conflict).toMatchObject({ status: 409, code: 'state.revision_conflict', details: { current_revision: 1 } });
    // The envelope is typed by the route's errors: narrowing on the code types its details.
    const { error } = await stale;
    if (error?.error.code !== 'state.revision_conflict') throw new Error('no conflict');
    const current: number = error.error.details.current_revision;
    const second = await ok(
      lpa.PUT('/api/v1/automation/globals/{name}', { ...named, body: { value: 'two', expected_revision: current } }),
    );
    expect(second.revision).toBe(2);
  });

  it('pages through the audit log by its cursor, newest first, without repeating an entry', async () => {
    const lpa = admin();
    for (const name of ['audit a', 'audit b', 'audit c']) await ok(lpa.POST('/api/v1/profiles', { body: { name } }));
    const seqs: number[] = [];
    let before: number | undefined;
    for (let page = 0; page < 3; page++) {
      const answer = await ok(lpa.GET('/api/v1/audit', { params: { query: { limit: 2, before_seq: before } } }));
      expect(answer.items).toHaveLength(2);
      seqs.push(...answer.items.map((entry) => entry.seq));
      if (answer.next_before_seq === null) break;
      before = answer.next_before_seq;
    }
    expect(seqs).toHaveLength(6);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(new Set(seqs).size).toBe(6);
  });

  it.skipIf('skip' in browser)('starts and stops a profile browser', { timeout: 120_000 }, async () => {
    const lpa = admin();
    const profile = await ok(lpa.POST('/api/v1/profiles', { body: { name: 'sdk run' } }));
    const path = { params: { path: { id: profile.id } } };
    const run = await ok(lpa.POST('/api/v1/profiles/{id}/start', { ...path, body: { headless: true } }));
    expect(run).toMatchObject({ profile_id: profile.id, state: 'running', ws_endpoint: expect.stringMatching(/^ws:/) });
    const again = await refusal(ok(lpa.POST('/api/v1/profiles/{id}/start', { ...path, body: { headless: true } })));
    expect(again).toMatchObject({ status: 409, code: 'run.active', details: { run_id: run.id } });
    const stopped = await ok(lpa.POST('/api/v1/profiles/{id}/stop', { ...path, body: {} }));
    expect(stopped.id).toBe(run.id);
  });

  it('says an answer that is not an LPA envelope is one, under sdk.unexpected_answer', async () => {
    const lpa = createLpaClient({
      baseUrl: baseUrl(),
      token: 'x',
      fetch: async () => new Response('<html>proxy</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    });
    const error = await refusal(ok(lpa.GET('/api/v1/profiles')));
    expect(error).toMatchObject({ status: 502, code: 'sdk.unexpected_answer' });
  });
});
