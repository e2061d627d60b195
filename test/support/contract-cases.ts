import {
  createAccount,
  createFlow,
  createProfile,
  expectStatus,
  tokenWith,
  type Case,
  type SuiteMode,
  type Transport,
} from './contract';

/**
 * How to call every operation of the document: for each, valid setup data and the answers it must
 * give (success and the errors of its own; the generic ones are derived from the document). The
 * contract test fails for an operation of the document that is missing here.
 */
export function contractCases(t: Transport, { teamMode = false }: SuiteMode): Record<string, () => Promise<Case[]>> {
  const unique = (prefix: string) => `${prefix}_${crypto.randomUUID().slice(0, 8)}`;
  const NO_ID = 'contract_no_such_id';

  async function account() {
    const profile = await createProfile(t, { name: unique('contract-acc') });
    const { id } = await createAccount(t, profile.id, {
      platform_url: 'https://mail.example',
      password: 'pw',
      totp_secret: 'JBSWY3DPEHPK3PXP',
    });
    return { base: `/api/v1/profiles/${profile.id}/accounts`, id };
  }

  async function global(): Promise<string> {
    const name = unique('contract_g');
    await t(`/api/v1/automation/globals/${name}`, { method: 'PUT', body: { value: 'v', expected_revision: 0 } });
    return `/api/v1/automation/globals/${name}`;
  }

  const flow = () => createFlow(t, { name: unique('contract-flow'), steps: [{ type: 'wait', ms: 1 }] });

  /** A run request for one profile that stops the browser it starts. */
  const job = (profile: string) => ({ profile_ids: [profile], headless: true, stop_after: true });

  /** The id of a job that waits `ms` on a new profile. */
  async function startedJob(ms: number): Promise<string> {
    const profile = (await createProfile(t, { name: unique('contract-job') })).id;
    const waits = await createFlow(t, { name: unique('contract-flow'), steps: [{ type: 'wait', ms }] });
    const path = `/api/v1/automation/flows/${waits}/runs`;
    return (await expectStatus(t(path, { method: 'POST', body: job(profile) }), 202)).json.id;
  }
  /** A running synchronizer session of two new profiles (whatever ran before is stopped, browsers and all): its start's body. */
  const syncSession = async () => {
    await t('/api/v1/automation/synchronizer/stop', { method: 'POST', body: { stop_browsers: true } });
    const [source, follower] = [
      await createProfile(t, { name: unique('contract-sync') }),
      await createProfile(t, { name: unique('contract-sync') }),
    ];
    const body = { source_id: source.id, follower_ids: [follower.id], headless: true };
    await expectStatus(t('/api/v1/automation/synchronizer/start', { method: 'POST', body }), 200);
    return body;
  };

  async function share(ids?: string[]) {
    const body = { ids: ids ?? [await flow()], name: 'contract', expires_in_minutes: 60, max_uses: 5 };
    return (await expectStatus(t('/api/v1/automation/shares', { method: 'POST', body }), 200)).json;
  }

  return {
    'GET /status': async () => [{ status: 200, path: '/status' }],
    'GET /api/v1/version': async () => [{ status: 200, path: '/api/v1/version' }],
    'GET /api/v1/system/status': async () => [{ status: 200, path: '/api/v1/system/status' }],
    'GET /api/v1/settings/logs': async () => [{ status: 200, path: '/api/v1/settings/logs' }],
    'PUT /api/v1/settings/logs': async () => [
      { status: 200, path: '/api/v1/settings/logs', body: { retention_days: 30 } },
      { status: 400, path: '/api/v1/settings/logs', body: { retention_days: 0 } },
    ],
    'GET /api/v1/account/status': async () => [{ status: 200, path: '/api/v1/account/status' }],
    'GET /api/v1/system/logs': async () => [{ status: 200, path: '/api/v1/system/logs' }],
    'GET /api/v1/system/logs/{stream}/{file}': async () => {
      // Every request writes the api stream, so it has a file by now.
      const { items } = (await t('/api/v1/system/logs')).json as { items: { stream: string; file: string }[] };
      const file = items.find((item) => item.stream === 'api')!.file;
      return [
        { status: 200, path: `/api/v1/system/logs/api/${file}` },
        { status: 404, path: '/api/v1/system/logs/api/contract-absent.log' },
        { status: 400, path: '/api/v1/system/logs/nope/a.log' },
        { status: 400, path: '/api/v1/system/logs/api/..%2Fadmin-token' },
      ];
    },
    'POST /api/v1/tokens': async () => [
      { status: 201, path: '/api/v1/tokens', body: { name: unique('contract'), scopes: ['audit:read'] } },
      { status: 400, path: '/api/v1/tokens', body: { name: '', scopes: [] } },
    ],
    'GET /api/v1/tokens': async () => [{ status: 200, path: '/api/v1/tokens' }],
    'GET /api/v1/tokens/self': async () => [{ status: 200, path: '/api/v1/tokens/self' }],
    'DELETE /api/v1/tokens/{id}': async () => {
      const path = `/api/v1/tokens/${(await tokenWith(t, [])).id}`;
      return [
        { status: 200, path },
        { status: 404, path },
      ];
    },
    'POST /api/v1/profiles': async () => [
      { status: 201, path: '/api/v1/profiles', body: { name: unique('contract'), tags: ['a'], notes: 'n' } },
      { status: 400, path: '/api/v1/profiles', body: { tags: [] } },
    ],
    'GET /api/v1/profiles': async () => {
      await createProfile(t, { name: unique('contract-list') });
      await createProfile(t, { name: unique('contract-list') });
      const next = (await t('/api/v1/profiles?limit=1')).json.next_cursor as string;
      return [
        { status: 200, path: '/api/v1/profiles?limit=1' },
        { status: 200, path: `/api/v1/profiles?limit=1&cursor=${encodeURIComponent(next)}` },
        { status: 400, path: '/api/v1/profiles?cursor=not-a-cursor' },
        { status: 400, path: `/api/v1/profiles?limit=1&sort=name&cursor=${encodeURIComponent(next)}` },
      ];
    },
    'GET /api/v1/profiles/{id}': async () => [
      { status: 200, path: `/api/v1/profiles/${(await createProfile(t, { name: unique('contract') })).id}` },
      { status: 404, path: `/api/v1/profiles/${NO_ID}` },
    ],
    'PATCH /api/v1/profiles/{id}': async () => [
      {
        status: 200,
        path: `/api/v1/profiles/${(await createProfile(t, { name: unique('contract') })).id}`,
        body: { pinned: true },
      },
      { status: 404, path: `/api/v1/profiles/${NO_ID}`, body: { pinned: true } },
    ],
    'DELETE /api/v1/profiles/{id}': async () => {
      const path = `/api/v1/profiles/${(await createProfile(t, { name: unique('contract') })).id}`;
      return [
        { status: 204, path },
        { status: 404, path },
      ];
    },
    'GET /api/v1/profiles/{id}/accounts': async () => [
      { status: 200, path: (await account()).base },
      { status: 404, path: `/api/v1/profiles/${NO_ID}/accounts` },
    ],
    'POST /api/v1/profiles/{id}/accounts': async () => [
      {
        status: 201,
        path: (await account()).base,
        body: { platform_url: 'https://x.example', username: 'u', password: 'p', sort_order: 1 },
      },
      { status: 404, path: `/api/v1/profiles/${NO_ID}/accounts`, body: { platform_url: 'https://x.example' } },
    ],
    'PATCH /api/v1/profiles/{id}/accounts/{accountId}': async () => {
      const { base, id } = await account();
      return [
        { status: 200, path: `${base}/${id}`, body: { notes: 'changed', password: null } },
        { status: 404, path: `${base}/${NO_ID}`, body: { notes: 'changed' } },
      ];
    },
    // A joined machine's profiles are the team's, run under the team's lease (docs/teams.md#runs-across-machines,
    // test/node/team-runs.test.ts); here only the refusals.
    'POST /api/v1/profiles/{id}/start': async () => {
      const refused = [
        { status: 404, path: `/api/v1/profiles/${NO_ID}/start`, body: { headless: true } },
        { status: 400, path: `/api/v1/profiles/${NO_ID}/start`, body: { args: ['--user-data-dir=/tmp/x'] } },
      ];
      if (teamMode) return refused;
      const path = `/api/v1/profiles/${(await createProfile(t, { name: unique('contract-run') })).id}/start`;
      return [
        { status: 200, path, body: { headless: true } },
        { status: 409, path, body: { headless: true } },
        ...refused,
      ];
    },
    'POST /api/v1/profiles/{id}/stop': async () => {
      const refused = [{ status: 404, path: `/api/v1/profiles/${NO_ID}/stop`, body: {} }];
      if (teamMode) return refused;
      const profile = await createProfile(t, { name: unique('contract-run') });
      await expectStatus(t(`/api/v1/profiles/${profile.id}/start`, { method: 'POST', body: { headless: true } }), 200);
      const path = `/api/v1/profiles/${profile.id}/stop`;
      return [{ status: 200, path, body: {} }, { status: 409, path, body: { force: true } }, ...refused];
    },
    'GET /api/v1/profiles/{id}/run': async () => {
      const refused = [{ status: 404, path: `/api/v1/profiles/${NO_ID}/run` }];
      if (teamMode) return refused;
      const profile = await createProfile(t, { name: unique('contract-run') });
      const path = `/api/v1/profiles/${profile.id}/run`;
      return [{ status: 404, path }, ...refused];
    },
    'GET /api/v1/runs': async () => [{ status: 200, path: '/api/v1/runs' }],
    'POST /api/v1/profiles/{id}/proxy/check': async () => {
      const body = { url: 'http://127.0.0.1:1/' };
      const refused = [{ status: 404, path: `/api/v1/profiles/${NO_ID}/proxy/check`, body }];
      if (teamMode) return refused;
      const bare = (await createProfile(t, { name: unique('contract-proxy') })).id;
      // A proxy on a port nothing listens on: the check answers, with ok false.
      const proxy = { type: 'http', host: '127.0.0.1', port: 1 };
      const proxied = (await createProfile(t, { name: unique('contract-proxy'), proxy })).id;
      return [
        { status: 200, path: `/api/v1/profiles/${proxied}/proxy/check`, body },
        { status: 400, path: `/api/v1/profiles/${proxied}/proxy/check`, body: { url: 'ftp://x.example/' } },
        { status: 409, path: `/api/v1/profiles/${bare}/proxy/check`, body },
        ...refused,
      ];
    },
    'GET /api/v1/profiles/{id}/screenshot': async () => {
      const refused = [{ status: 404, path: `/api/v1/profiles/${NO_ID}/screenshot` }];
      if (teamMode) return refused;
      const idle = (await createProfile(t, { name: unique('contract-shot') })).id;
      const running = (await createProfile(t, { name: unique('contract-shot') })).id;
      await expectStatus(t(`/api/v1/profiles/${running}/start`, { method: 'POST', body: { headless: true } }), 200);
      return [
        { status: 200, path: `/api/v1/profiles/${running}/screenshot` },
        { status: 409, path: `/api/v1/profiles/${idle}/screenshot` },
        ...refused,
      ];
    },
    'GET /api/v1/profiles/{id}/cookies': async () => {
      const refused = [
        { status: 404, path: `/api/v1/profiles/${NO_ID}/cookies` },
        { status: 400, path: `/api/v1/profiles/${NO_ID}/cookies?format=xml` },
      ];
      if (teamMode) return refused;
      const id = (await createProfile(t, { name: unique('contract-jar') })).id;
      return [{ status: 200, path: `/api/v1/profiles/${id}/cookies?format=netscape&domain=example.com` }, ...refused];
    },
    'POST /api/v1/profiles/{id}/cookies': async () => {
      const later = Math.floor(Date.now() / 1000) + 86_400;
      const content = JSON.stringify([{ name: 'c', value: 'v', domain: 'example.com', expires: later }]);
      const refused = [
        { status: 404, path: `/api/v1/profiles/${NO_ID}/cookies`, body: { content } },
        { status: 400, path: `/api/v1/profiles/${NO_ID}/cookies`, body: { content, mode: 'append' } },
      ];
      if (teamMode) return refused;
      const path = `/api/v1/profiles/${(await createProfile(t, { name: unique('contract-jar') })).id}/cookies`;
      return [
        { status: 200, path, body: { content, format: 'json', mode: 'replace' } },
        { status: 400, path, body: { content: '{not json', format: 'json' } },
        ...refused,
      ];
    },
    'POST /api/v1/profiles/batch/start': async () => [
      { status: 200, path: '/api/v1/profiles/batch/start', body: { ids: [NO_ID] } },
      { status: 400, path: '/api/v1/profiles/batch/start', body: { ids: [] } },
      { status: 400, path: '/api/v1/profiles/batch/start', body: { ids: [NO_ID, NO_ID] } },
    ],
    'POST /api/v1/profiles/batch/stop': async () => [
      { status: 200, path: '/api/v1/profiles/batch/stop', body: { ids: [NO_ID] } },
      {
        status: 400,
        path: '/api/v1/profiles/batch/stop',
        body: { ids: Array.from({ length: 101 }, (_, n) => `p${n}`) },
      },
    ],
    'POST /api/v1/runs/stop-all': async () => [{ status: 200, path: '/api/v1/runs/stop-all', body: {} }],
    // A flow job runs in this machine's browsers; a joined machine's flows are the team's.
    'POST /api/v1/automation/flows/{id}/runs': async () => {
      const refused = [
        { status: 404, path: `/api/v1/automation/flows/${NO_ID}/runs`, body: { profile_ids: [NO_ID] } },
        { status: 400, path: `/api/v1/automation/flows/${NO_ID}/runs`, body: { profile_ids: [] } },
      ];
      if (teamMode) return refused;
      const profile = (await createProfile(t, { name: unique('contract-job') })).id;
      const needs = await createFlow(t, {
        name: unique('contract-flow'),
        steps: [{ type: 'open_url', url: '${nowhere}' }],
      });
      return [
        { status: 202, path: `/api/v1/automation/flows/${await flow()}/runs`, body: job(profile) },
        { status: 400, path: `/api/v1/automation/flows/${needs}/runs`, body: job(profile) },
        ...refused,
      ];
    },
    'GET /api/v1/automation/runs': async () => [{ status: 200, path: '/api/v1/automation/runs' }],
    'GET /api/v1/automation/runs/{job_id}': async () => {
      const refused = [{ status: 404, path: `/api/v1/automation/runs/${NO_ID}` }];
      if (teamMode) return refused;
      return [{ status: 200, path: `/api/v1/automation/runs/${await startedJob(1)}` }, ...refused];
    },
    'POST /api/v1/automation/runs/{job_id}/cancel': async () => {
      const refused = [{ status: 404, path: `/api/v1/automation/runs/${NO_ID}/cancel` }];
      if (teamMode) return refused;
      return [{ status: 200, path: `/api/v1/automation/runs/${await startedJob(600_000)}/cancel` }, ...refused];
    },
    'DELETE /api/v1/profiles/{id}/accounts/{accountId}': async () => {
      const { base, id } = await account();
      return [
        { status: 204, path: `${base}/${id}` },
        { status: 404, path: `${base}/${id}` },
      ];
    },
    'GET /api/v1/profiles/{id}/accounts/{accountId}/password': async () => {
      const { base, id } = await account();
      return [
        { status: 200, path: `${base}/${id}/password` },
        { status: 404, path: `${base}/${NO_ID}/password` },
      ];
    },
    'GET /api/v1/profiles/{id}/accounts/{accountId}/totp': async () => {
      const { base, id } = await account();
      return [
        { status: 200, path: `${base}/${id}/totp` },
        { status: 404, path: `${base}/${NO_ID}/totp` },
      ];
    },
    'GET /api/v1/automation/globals': async () => {
      await global();
      return [{ status: 200, path: '/api/v1/automation/globals' }];
    },
    'GET /api/v1/automation/globals/{name}': async () => [
      { status: 200, path: await global() },
      { status: 404, path: `/api/v1/automation/globals/${NO_ID}` },
    ],
    'PUT /api/v1/automation/globals/{name}': async () => {
      const path = `/api/v1/automation/globals/${unique('contract_put')}`;
      return [
        { status: 200, path, body: { value: 'first', expected_revision: 0 } },
        { status: 409, path, body: { value: 'again', expected_revision: 0 } },
        { status: 400, path, body: { value: 'v' } },
      ];
    },
    'DELETE /api/v1/automation/globals/{name}': async () => {
      const path = await global();
      return [
        { status: 200, path: `${path}?expected_revision=1` },
        { status: 409, path: `${await global()}?expected_revision=7` },
        { status: 404, path: `${path}?expected_revision=1` },
        { status: 400, path: `${path}?expected_revision=0` },
      ];
    },
    'POST /api/v1/automation/flows': async () => [
      {
        status: 201,
        path: '/api/v1/automation/flows',
        body: {
          name: unique('contract'),
          steps: [{ type: 'open_url', url: 'https://example.com' }],
          values: [{ name: 'k', value: 's', protected: true }],
        },
      },
      {
        status: 400,
        path: '/api/v1/automation/flows',
        body: { name: unique('contract'), steps: [], dependencies: [NO_ID] },
      },
      { status: 400, path: '/api/v1/automation/flows', body: { steps: [] } },
    ],
    'GET /api/v1/automation/flows': async () => {
      await flow();
      return [{ status: 200, path: '/api/v1/automation/flows' }];
    },
    'GET /api/v1/automation/flows/{id}': async () => [
      { status: 200, path: `/api/v1/automation/flows/${await flow()}` },
      { status: 404, path: `/api/v1/automation/flows/${NO_ID}` },
    ],
    'PATCH /api/v1/automation/flows/{id}': async () => {
      const path = `/api/v1/automation/flows/${await flow()}`;
      return [
        { status: 200, path, body: { name: unique('contract-edited'), values: [{ name: 'k', protected: true }] } },
        { status: 400, path, body: {} },
        { status: 400, path, body: { dependencies: [NO_ID] } },
        { status: 404, path: `/api/v1/automation/flows/${NO_ID}`, body: { name: 'x' } },
      ];
    },
    'DELETE /api/v1/automation/flows/{id}': async () => {
      const base = await flow();
      await createFlow(t, { name: unique('contract-dependent'), dependencies: [base], steps: [] });
      const path = `/api/v1/automation/flows/${await flow()}`;
      return [
        { status: 409, path: `/api/v1/automation/flows/${base}` },
        { status: 200, path },
        { status: 404, path },
      ];
    },
    'GET /api/v1/automation/shares': async () => {
      await share();
      return [{ status: 200, path: '/api/v1/automation/shares' }];
    },
    'POST /api/v1/automation/shares': async () => {
      const base = await flow();
      const dependent = await createFlow(t, { name: unique('contract-dependent'), dependencies: [base], steps: [] });
      const body = { name: 'contract', expires_in_minutes: 60, max_uses: 1 };
      return [
        {
          status: 200,
          path: '/api/v1/automation/shares',
          body: { ...body, ids: [base, dependent], include_secrets: true },
        },
        { status: 400, path: '/api/v1/automation/shares', body: { ...body, ids: [NO_ID] } },
        { status: 400, path: '/api/v1/automation/shares', body: { ...body, ids: [dependent] } },
      ];
    },
    'DELETE /api/v1/automation/shares/{id}': async () => {
      const path = `/api/v1/automation/shares/${(await share()).id}`;
      return [
        { status: 200, path },
        { status: 404, path },
      ];
    },
    'POST /api/v1/automation/shares/redeem': async () => {
      const { code } = await share();
      const revoked = await share();
      await t(`/api/v1/automation/shares/${revoked.id}`, { method: 'DELETE' });
      const path = '/api/v1/automation/shares/redeem';
      return [
        { status: 200, path, body: { code } },
        { status: 400, path, body: { code: 'not a share code' } },
        { status: 409, path, body: { code: revoked.code } },
      ];
    },
    'POST /api/v1/automation/shares/import': async () => {
      const id = await flow();
      const { code } = await share([id]);
      const { ticket } = (await t('/api/v1/automation/shares/redeem', { method: 'POST', body: { code } })).json;
      const path = '/api/v1/automation/shares/import';
      return [
        { status: 200, path, body: { ticket, ids: [id] } },
        { status: 409, path, body: { ticket, ids: [id] } },
        { status: 404, path, body: { ticket: crypto.randomUUID(), ids: [id] } },
      ];
    },
    'GET /api/v1/automation/files': async () => [{ status: 200, path: '/api/v1/automation/files' }],
    'POST /api/v1/automation/files': async () => {
      const body = { name: `${unique('contract')}.txt`, base64: btoa('contract') };
      return [
        { status: 200, path: '/api/v1/automation/files', body },
        { status: 409, path: '/api/v1/automation/files', body },
        { status: 400, path: '/api/v1/automation/files', body: { ...body, base64: 'not base64!' } },
      ];
    },
    'GET /api/v1/automation/files/content': async () => {
      const name = `${unique('contract')}.txt`;
      await t('/api/v1/automation/files', { method: 'POST', body: { name, base64: btoa('contract') } });
      return [
        { status: 200, path: `/api/v1/automation/files/content?name=${name}` },
        { status: 404, path: `/api/v1/automation/files/content?name=${NO_ID}.txt` },
        { status: 400, path: '/api/v1/automation/files/content' },
      ];
    },
    'GET /api/v1/automation/synchronizer': async () => [{ status: 200, path: '/api/v1/automation/synchronizer' }],
    // Each case brings the synchronizer to the state it needs: which case runs first is not fixed.
    'POST /api/v1/automation/synchronizer/start': async () => {
      const path = '/api/v1/automation/synchronizer/start';
      const refused = { status: 400, path, body: { source_id: NO_ID, follower_ids: [NO_ID] } };
      if (teamMode) return [refused];
      const body = await syncSession();
      await expectStatus(t('/api/v1/automation/synchronizer/stop', { method: 'POST', body: {} }), 200);
      return [
        refused,
        { status: 404, path, body: { source_id: NO_ID, follower_ids: [body.source_id] } },
        { status: 200, path, body },
        { status: 409, path, body },
      ];
    },
    'POST /api/v1/automation/synchronizer/stop': async () => {
      const path = '/api/v1/automation/synchronizer/stop';
      if (teamMode) return [{ status: 409, path, body: {} }];
      await syncSession();
      return [
        { status: 200, path, body: { stop_browsers: true } },
        { status: 409, path },
      ];
    },
    'DELETE /api/v1/automation/synchronizer/followers/{id}': async () => {
      const base = '/api/v1/automation/synchronizer/followers';
      if (teamMode) return [{ status: 409, path: `${base}/${NO_ID}` }];
      const { follower_ids } = await syncSession();
      return [
        { status: 404, path: `${base}/${NO_ID}` },
        { status: 200, path: `${base}/${follower_ids[0]}` },
        { status: 409, path: `${base}/${follower_ids[0]}` },
      ];
    },
    'GET /api/v1/audit': async () => [
      { status: 200, path: '/api/v1/audit?limit=5' },
      { status: 200, path: '/api/v1/audit?limit=5&before_seq=3&result=ok&category=profile' },
      { status: 400, path: '/api/v1/audit?limit=0' },
    ],
    'GET /api/v1/audit/hashes': async () => [
      { status: 200, path: '/api/v1/audit/hashes?after_seq=1&limit=5' },
      { status: 400, path: '/api/v1/audit/hashes?limit=0' },
    ],
    'GET /api/v1/audit/verify': async () => [{ status: 200, path: '/api/v1/audit/verify' }],
    // A solo service has witnessed nothing and has no team to verify against: 409 team.not_joined.
    // A machine in a team verifies the team's chain against the heads it witnessed in this run: 200.
    'GET /api/v1/team': async () => [{ status: 200, path: '/api/v1/team' }],
    'POST /api/v1/team/verify': async () => [{ status: teamMode ? 200 : 409, path: '/api/v1/team/verify' }],
    // A machine in a team answers the team's live leases (none while the suite runs no team profile); a solo one none.
    'GET /api/v1/team/runs': async () => [{ status: 200, path: '/api/v1/team/runs' }],
    // A page of every kind, each with an item in it, as `lpa team push` reads them.
    'GET /api/v1/team/export': async () => {
      await account();
      await global();
      await share();
      return [
        ...['profiles', 'accounts', 'globals', 'flows', 'shares'].map((kind) => ({
          status: 200,
          path: `/api/v1/team/export?kind=${kind}`,
        })),
        { status: 200, path: '/api/v1/team/export?kind=profiles&offset=1000000' },
        { status: 400, path: '/api/v1/team/export?kind=tokens' },
        { status: 400, path: '/api/v1/team/export?kind=profiles&offset=-1' },
      ];
    },
    'GET /api/v1/audit/checkpoint': async () => [{ status: 200, path: '/api/v1/audit/checkpoint' }],
    'GET /api/v1/audit/public-key': async () => [{ status: 200, path: '/api/v1/audit/public-key' }],
    'GET /api/v1/audit/export': async () => [
      { status: 200, path: '/api/v1/audit/export?format=jsonl' },
      { status: 200, path: '/api/v1/audit/export?format=csv&category=profile' },
      { status: 400, path: '/api/v1/audit/export?format=xml' },
    ],
    'GET /api/v1/settings/audit': async () => [{ status: 200, path: '/api/v1/settings/audit' }],
    'PUT /api/v1/settings/audit': async () => [
      { status: 200, path: '/api/v1/settings/audit', body: { retention_days: 1095 } },
      { status: 400, path: '/api/v1/settings/audit', body: { retention_days: 29 } },
    ],
    'GET /api/v1/openapi.json': async () => [{ status: 200, path: '/api/v1/openapi.json' }],
  };
}
