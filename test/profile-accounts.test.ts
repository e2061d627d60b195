import { describe, expect, it, vi } from 'vitest';
import { call, tokenWith } from './support/api';
import { auditRows, createAccount, createProfile, rawRows } from './support/profiles';
import { inStore, sql } from './support/store';

const accountsOf = (profileId: string) => `/api/v1/profiles/${profileId}/accounts`;

/** Every row of every table the store can read, as one string, to search for a plaintext. */
const wholeDatabase = () =>
  inStore(({ sql }) => {
    const tables = sql
      .exec(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`,
      )
      .toArray();
    return JSON.stringify(tables.map((t) => sql.exec(`SELECT * FROM "${String(t.name)}"`).toArray()));
  });

describe('platform accounts: create and list', () => {
  it('creates with 201 and answers password_set/totp_set, never the secrets', async () => {
    const p = await createProfile({ name: 'acc-create' });
    const res = await call(accountsOf(p.id), {
      method: 'POST',
      body: {
        platform_url: 'https://mail.example',
        username: 'me',
        password: 'acc-create-pw-1',
        totp_secret: 'JBSWY3DPEHPK3PXP',
        notes: 'n',
        sort_order: 3,
      },
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(String),
      profile_id: p.id,
      platform_url: 'https://mail.example',
      username: 'me',
      password_set: true,
      totp_set: true,
      notes: 'n',
      sort_order: 3,
      created_at: expect.any(Number),
      updated_at: res.json.created_at,
    });
    const bare = await call(accountsOf(p.id), { method: 'POST', body: { platform_url: 'https://bare.example' } });
    expect(bare.status).toBe(201);
    expect(bare.json).toEqual({
      id: expect.any(String),
      profile_id: p.id,
      platform_url: 'https://bare.example',
      username: null,
      password_set: false,
      totp_set: false,
      notes: null,
      sort_order: 0,
      created_at: expect.any(Number),
      updated_at: bare.json.created_at,
    });
    const { token } = await tokenWith(['profiles:read']);
    const listed = await call(accountsOf(p.id), { token });
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({ items: [bare.json, res.json] });
    expect(listed.text).not.toContain('acc-create-pw-1');
    expect(listed.text).not.toContain('JBSWY3DPEHPK3PXP');
  });

  it.each([
    [{}, ['platform_url']],
    [{ platform_url: '' }, ['platform_url']],
    [{ platform_url: 'u'.repeat(257) }, ['platform_url']],
    [{ platform_url: 'u', username: 'x'.repeat(257) }, ['username']],
    [{ platform_url: 'u', password: 'x'.repeat(1025) }, ['password']],
    [{ platform_url: 'u', totp_secret: 'A'.repeat(1025) }, ['totp_secret']],
    [{ platform_url: 'u', notes: 'x'.repeat(1025) }, ['notes']],
    [{ platform_url: 'u', sort_order: -1 }, ['sort_order']],
    [{ platform_url: 'u', sort_order: 1.5 }, ['sort_order']],
    [{ platform_url: 'u', password: 5 }, ['password']],
    [{ platform_url: 'u', secret: 'x' }, []],
  ])('refuses %j with 400 request.invalid', async (body, path) => {
    const p = await createProfile({ name: `acc-bad-${JSON.stringify(path)}` });
    const res = await call(accountsOf(p.id), { method: 'POST', body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    expect(res.json.error.details.issues[0]).toMatchObject({ in: 'body', path });
    expect((await call(accountsOf(p.id))).json).toEqual({ items: [] });
  });

  it.each([
    ['not base32', '!!!not-base32!!!'],
    ['empty once spaces go', '    '],
    ['too short to hold a byte', 'A'],
    ['a counter-based URI', 'otpauth://hotp/x?secret=JBSWY3DPEHPK3PXP&counter=1'],
    ['too few digits', 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&digits=4'],
    ['an unknown algorithm', 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&algorithm=MD5'],
    ['a URI without secret', 'otpauth://totp/x?digits=6'],
  ])('refuses an unusable 2FA secret (%s) with 400', async (_why, totp_secret) => {
    const p = await createProfile({ name: `acc-totp-bad-${_why}` });
    const res = await call(accountsOf(p.id), { method: 'POST', body: { platform_url: 'u', totp_secret } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    expect(res.json.error.details.issues[0]).toMatchObject({
      in: 'body',
      path: ['totp_secret'],
      message: expect.stringMatching(/^Unusable 2FA secret/),
    });
    if (totp_secret.trim().length > 3) expect(res.text).not.toContain(totp_secret.trim());
  });

  it('accepts every field at its largest', async () => {
    const p = await createProfile({ name: 'acc-max' });
    const res = await call(accountsOf(p.id), {
      method: 'POST',
      body: {
        platform_url: 'u'.repeat(256),
        username: 'x'.repeat(256),
        password: 'p'.repeat(1024),
        totp_secret: 'a'.repeat(1024),
        notes: 'n'.repeat(1024),
        sort_order: 2 ** 31,
      },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ password_set: true, totp_set: true, sort_order: 2 ** 31 });
    const pw = await call(`${accountsOf(p.id)}/${res.json.id}/password`);
    expect(pw.json).toEqual({ password: 'p'.repeat(1024) });
  });

  it('404s an unknown profile on every route, and an account of another profile', async () => {
    const p = await createProfile({ name: 'acc-404' });
    const other = await createProfile({ name: 'acc-404-other' });
    const a = await createAccount(p.id, { platform_url: 'u', password: 'acc-404-pw' });
    const cases: Array<[string, string, unknown?]> = [
      ['GET', accountsOf('nope')],
      ['POST', accountsOf('nope'), { platform_url: 'u' }],
      ['PATCH', `${accountsOf('nope')}/${a.id}`, { notes: 'x' }],
      ['DELETE', `${accountsOf('nope')}/${a.id}`],
      ['GET', `${accountsOf('nope')}/${a.id}/password`],
      ['GET', `${accountsOf('nope')}/${a.id}/totp`],
      ['PATCH', `${accountsOf(p.id)}/nope`, { notes: 'x' }],
      ['DELETE', `${accountsOf(p.id)}/nope`],
      ['GET', `${accountsOf(p.id)}/nope/password`],
      ['GET', `${accountsOf(p.id)}/nope/totp`],
      ['PATCH', `${accountsOf(other.id)}/${a.id}`, { notes: 'x' }],
      ['GET', `${accountsOf(other.id)}/${a.id}/password`],
    ];
    for (const [method, path, body] of cases) {
      const res = await call(path, { method, body });
      expect({ method, path, status: res.status, code: res.json.error.code }).toEqual({
        method,
        path,
        status: 404,
        code: 'resource.not_found',
      });
    }
    expect((await call(`${accountsOf(p.id)}/${a.id}/password`)).json).toEqual({ password: 'acc-404-pw' });
  });

  it('a profile holds at most 500 accounts: the next one is 409 profile_accounts.limit_reached', async () => {
    const p = await createProfile({ name: 'acc-full' });
    await sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 499)
       INSERT INTO profile_accounts (id, profile_no, platform_url, sort_order, created_at, updated_at) SELECT 'acc-full-' || i, ?, 'u', 0, 1, 1 FROM n`,
      p.no,
    );
    expect((await call(accountsOf(p.id), { method: 'POST', body: { platform_url: 'last' } })).status).toBe(201);
    const res = await call(accountsOf(p.id), { method: 'POST', body: { platform_url: 'one-too-many' } });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({
      code: 'profile_accounts.limit_reached',
      message: expect.any(String),
      details: { max: 500 },
    });
    expect((await call(accountsOf(p.id))).json.items).toHaveLength(500);
  });

  it('checks the path parameters: id and accountId 1..64', async () => {
    const long = 'x'.repeat(65);
    const res = await call(accountsOf(long));
    expect(res.status).toBe(400);
    expect(res.json.error.details.issues[0]).toMatchObject({ in: 'path', path: ['id'] });
    const p = await createProfile({ name: 'acc-params' });
    const acc = await call(`${accountsOf(p.id)}/${long}/password`);
    expect(acc.status).toBe(400);
    expect(acc.json.error.details.issues[0]).toMatchObject({ in: 'path', path: ['accountId'] });
  });
});

describe('platform accounts: change, remove, delete', () => {
  it('changes only the given fields; null removes password and 2FA secret', async () => {
    const p = await createProfile({ name: 'acc-patch' });
    const a = await createAccount(p.id, {
      platform_url: 'https://a',
      username: 'u1',
      password: 'acc-patch-pw',
      totp_secret: 'JBSWY3DPEHPK3PXP',
      notes: 'keep',
    });
    const rename = await call(`${accountsOf(p.id)}/${a.id}`, {
      method: 'PATCH',
      body: { username: 'u2', sort_order: 7 },
    });
    expect(rename.status).toBe(200);
    expect(rename.json).toEqual({ ...a, username: 'u2', sort_order: 7, updated_at: expect.any(Number) });
    expect((await call(`${accountsOf(p.id)}/${a.id}/password`)).json).toEqual({ password: 'acc-patch-pw' });

    const newPw = await call(`${accountsOf(p.id)}/${a.id}`, { method: 'PATCH', body: { password: 'acc-patch-pw-2' } });
    expect(newPw.json).toMatchObject({ password_set: true, totp_set: true });
    expect((await call(`${accountsOf(p.id)}/${a.id}/password`)).json).toEqual({ password: 'acc-patch-pw-2' });

    const removed = await call(`${accountsOf(p.id)}/${a.id}`, {
      method: 'PATCH',
      body: { password: null, totp_secret: null, username: null },
    });
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({
      ...rename.json,
      username: null,
      password_set: false,
      totp_set: false,
      updated_at: expect.any(Number),
    });
    const noPw = await call(`${accountsOf(p.id)}/${a.id}/password`);
    expect(noPw.status).toBe(404);
    expect(noPw.json.error).toMatchObject({ code: 'resource.not_found', details: { resource: 'password' } });
    const noTotp = await call(`${accountsOf(p.id)}/${a.id}/totp`);
    expect(noTotp.status).toBe(404);
    expect(noTotp.json.error).toMatchObject({ code: 'resource.not_found', details: { resource: 'totp_secret' } });
    const row = (await rawRows('profile_accounts')).find((r) => r.id === a.id);
    expect(row).toMatchObject({ password: null, totp_secret: null });
  });

  it('refuses a bad patch', async () => {
    const p = await createProfile({ name: 'acc-patch-bad' });
    const a = await createAccount(p.id, { platform_url: 'u' });
    for (const body of [
      { platform_url: '' },
      { platform_url: null },
      { totp_secret: 'xyz!' },
      { sort_order: -1 },
      { other: 1 },
    ]) {
      const res = await call(`${accountsOf(p.id)}/${a.id}`, { method: 'PATCH', body });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('request.invalid');
    }
  });

  it('deletes an account with 204 and no body', async () => {
    const p = await createProfile({ name: 'acc-del' });
    const a = await createAccount(p.id, { platform_url: 'u', password: 'acc-del-pw' });
    const res = await call(`${accountsOf(p.id)}/${a.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call(accountsOf(p.id))).json).toEqual({ items: [] });
    expect((await call(`${accountsOf(p.id)}/${a.id}`, { method: 'DELETE' })).status).toBe(404);
    const [entry] = (await auditRows('profile_accounts.delete')).filter((r) => r.entity_id === a.id);
    expect(entry).toMatchObject({ entity_type: 'profile_account', entity_no: p.no, result: 'ok' });
  });

  it('deleting a profile deletes its accounts in the same change', async () => {
    const p = await createProfile({ name: 'acc-profile-del' });
    const a = await createAccount(p.id, { platform_url: 'u', password: 'acc-profile-del-pw' });
    await createAccount(p.id, { platform_url: 'v' });
    expect((await rawRows('profile_accounts')).filter((r) => r.profile_no === p.no)).toHaveLength(2);
    expect((await call(`/api/v1/profiles/${p.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await rawRows('profile_accounts')).filter((r) => r.profile_no === p.no)).toEqual([]);
    expect((await call(`${accountsOf(p.id)}/${a.id}/password`)).status).toBe(404);
    const [entry] = (await auditRows('profiles.delete')).filter((r) => r.entity_id === p.id);
    expect(JSON.parse(String(entry!.details))).toEqual({ name: 'acc-profile-del', accounts_deleted: 2 });
  });
});

describe('platform accounts: secrets', () => {
  it('reads the password with secrets:read only, and audits each read in its transaction', async () => {
    const p = await createProfile({ name: 'acc-read' });
    const a = await createAccount(p.id, { platform_url: 'u', password: 'acc-read-pw-Ω' });
    const reader = await tokenWith(['secrets:read']);
    const res = await call(`${accountsOf(p.id)}/${a.id}/password`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ password: 'acc-read-pw-Ω' });
    const [entry] = (await auditRows('profile_accounts.password_read')).filter((r) => r.entity_id === a.id);
    expect(entry).toMatchObject({
      entity_type: 'profile_account',
      entity_no: p.no,
      result: 'ok',
      actor_type: 'token',
      actor_id: reader.id,
      category: 'profile',
      request_id: res.headers.get('x-request-id'),
    });
    expect(JSON.parse(String(entry!.details))).toEqual({ profile_id: p.id });

    const { token } = await tokenWith(['profiles:read', 'secrets:totp']);
    const denied = await call(`${accountsOf(p.id)}/${a.id}/password`, { token });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toMatchObject({ code: 'auth.scope_missing', details: { missing: ['secrets:read'] } });
  });

  it('answers the 2FA code with secrets:totp only', async () => {
    const p = await createProfile({ name: 'acc-totp-scope' });
    const a = await createAccount(p.id, { platform_url: 'u', totp_secret: 'JBSWY3DPEHPK3PXP' });
    const { token } = await tokenWith(['secrets:read', 'profiles:read']);
    const denied = await call(`${accountsOf(p.id)}/${a.id}/totp`, { token });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toMatchObject({ code: 'auth.scope_missing', details: { missing: ['secrets:totp'] } });
    const totp = await tokenWith(['secrets:totp']);
    const res = await call(`${accountsOf(p.id)}/${a.id}/totp`, { token: totp.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ code: expect.stringMatching(/^\d{6}$/), remaining_s: expect.any(Number) });
    const [entry] = (await auditRows('profile_accounts.totp_read')).filter((r) => r.entity_id === a.id);
    expect(entry).toMatchObject({ entity_no: p.no, result: 'ok', actor_id: totp.id });
  });

  it('keeps every password and 2FA secret out of rows, audit entries, listings and error answers', async () => {
    const password = 'acc-leak-PASSWORD-7f3a9c';
    const totp = 'KRUGS4ZANFZSAYJAONSWG4TFOQQGW2LF';
    const p = await createProfile({ name: 'acc-leak' });
    const a = await createAccount(p.id, { platform_url: 'u', password, totp_secret: totp });
    await call(`${accountsOf(p.id)}/${a.id}`, {
      method: 'PATCH',
      body: { password: `${password}-2`, totp_secret: `otpauth://totp/x?secret=${totp}&digits=8` },
    });
    await call(`${accountsOf(p.id)}/${a.id}/password`);
    await call(`${accountsOf(p.id)}/${a.id}/totp`);
    const { token } = await tokenWith(['profiles:read']);
    await call(`${accountsOf(p.id)}/${a.id}/password`, { token });
    const answers = [
      await call(accountsOf(p.id)),
      await call(`/api/v1/profiles/${p.id}`),
      await call('/api/v1/profiles?q=acc-leak'),
      await call(`${accountsOf(p.id)}`, { method: 'POST', body: { platform_url: '', password } }),
    ];
    const everything = [await wholeDatabase(), ...answers.map((r) => r.text)].join('\n');
    for (const secret of [password, `${password}-2`, totp]) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(btoa(secret));
    }
    const row = (await rawRows('profile_accounts')).find((r) => r.id === a.id)!;
    expect(row.password).toMatch(/^v1\./);
    expect(row.totp_secret).toMatch(/^v1\./);
  });

  it('fails closed: no plaintext when the audit entry of the read cannot be written', async () => {
    const p = await createProfile({ name: 'acc-fail-closed' });
    const a = await createAccount(p.id, {
      platform_url: 'u',
      password: 'acc-fail-closed-pw',
      totp_secret: 'JBSWY3DPEHPK3PXP',
    });
    await sql('ALTER TABLE audit_log RENAME TO audit_log_away');
    // Each failure is logged for the operator (the request's, then the audit of it): taken here, not printed.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const path of ['password', 'totp']) {
        const res = await call(`${accountsOf(p.id)}/${a.id}/${path}`);
        expect(res.status).toBe(500);
        expect(res.json.error.code).toBe('internal');
        expect(res.text).not.toContain('acc-fail-closed-pw');
        expect(logged.mock.calls.map(([message]) => message)).toEqual([
          `request ${res.headers.get('x-request-id')} failed:`,
          'could not audit a failed request',
        ]);
        logged.mockClear();
      }
    } finally {
      logged.mockRestore();
      await sql('ALTER TABLE audit_log_away RENAME TO audit_log');
    }
    expect((await call(`${accountsOf(p.id)}/${a.id}/password`)).json).toEqual({ password: 'acc-fail-closed-pw' });
  });

  it('a ciphertext copied to another account does not open there', async () => {
    const p = await createProfile({ name: 'acc-aad' });
    const a = await createAccount(p.id, { platform_url: 'u', password: 'acc-aad-pw' });
    const b = await createAccount(p.id, { platform_url: 'v', password: 'other' });
    await sql(
      'UPDATE profile_accounts SET password = (SELECT password FROM profile_accounts WHERE id = ?) WHERE id = ?',
      a.id,
      b.id,
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await call(`${accountsOf(p.id)}/${b.id}/password`);
    expect(logged).toHaveBeenCalledExactlyOnceWith(
      `request ${res.headers.get('x-request-id')} failed:`,
      expect.objectContaining({ code: 'vault.unreadable' }),
    );
    logged.mockRestore();
    expect(res.status).toBe(500);
    expect(res.json.error).toEqual({
      code: 'vault.unreadable',
      message: expect.any(String),
      details: { account_id: b.id, field: 'password' },
    });
    expect(res.text).not.toContain('acc-aad-pw');
  });
});
