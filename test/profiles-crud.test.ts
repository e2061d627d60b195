import { describe, expect, it } from 'vitest';
import { BROWSER_DEFAULTS } from '../src/shared/schemas/browser-settings';
import { call, tokenWith } from './support/api';
import { auditRows, createProfile, rawRows } from './support/profiles';

const isId = expect.stringMatching(/^[0-9a-f-]{36}$/);

describe('profile create', () => {
  it('answers 201 with the whole record and a serial no', async () => {
    const res = await call('/api/v1/profiles', {
      method: 'POST',
      body: { name: 'crud-full', group: 'work', tags: ['a', 'b'], pinned: true, notes: 'Some notes' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: isId,
      no: expect.any(Number),
      name: 'crud-full',
      group: 'work',
      tags: ['a', 'b'],
      pinned: true,
      notes: 'Some notes',
      proxy: null,
      browser: BROWSER_DEFAULTS,
      created_at: expect.any(Number),
      updated_at: res.json.created_at,
      running: false,
      running_on: null,
    });
    const second = await createProfile({ name: 'crud-second' });
    expect(second).toEqual({
      id: isId,
      no: res.json.no + 1,
      name: 'crud-second',
      group: null,
      tags: [],
      pinned: false,
      notes: null,
      proxy: null,
      browser: BROWSER_DEFAULTS,
      created_at: expect.any(Number),
      updated_at: second.created_at,
      running: false,
      running_on: null,
    });
    const [entry] = (await auditRows('profiles.create')).filter((r) => r.entity_id === res.json.id);
    expect(entry).toMatchObject({ entity_type: 'profile', entity_no: res.json.no, result: 'ok', category: 'profile' });
  });

  it('never gives a deleted profile number to another profile', async () => {
    const a = await createProfile({ name: 'crud-no-a' });
    expect((await call(`/api/v1/profiles/${a.id}`, { method: 'DELETE' })).status).toBe(204);
    const b = await createProfile({ name: 'crud-no-b' });
    expect(b.no).toBe(a.no + 1);
  });

  it.each([
    [{}, ['name']],
    [{ name: '' }, ['name']],
    [{ name: 'x'.repeat(121) }, ['name']],
    [{ name: 'ok', group: '' }, ['group']],
    [{ name: 'ok', group: 'g'.repeat(121) }, ['group']],
    [{ name: 'ok', tags: ['a', 'a'] }, ['tags']],
    [{ name: 'ok', tags: [''] }, ['tags', 0]],
    [{ name: 'ok', tags: ['t'.repeat(65)] }, ['tags', 0]],
    [{ name: 'ok', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, ['tags']],
    [{ name: 'ok', notes: 'n'.repeat(10_001) }, ['notes']],
    [{ name: 'ok', pinned: 'yes' }, ['pinned']],
    [{ name: 'ok', extra: 1 }, []],
  ])('refuses %j with 400 request.invalid', async (body, path) => {
    const res = await call('/api/v1/profiles', { method: 'POST', body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    expect(res.json.error.details.issues[0]).toMatchObject({ in: 'body', path });
  });

  it('accepts the largest bounds', async () => {
    const tags = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(64, 'x'));
    const res = await call('/api/v1/profiles', {
      method: 'POST',
      body: { name: 'n'.repeat(120), group: 'g'.repeat(120), tags, notes: 'n'.repeat(10_000) },
    });
    expect(res.status).toBe(201);
    expect(res.json.tags).toEqual(tags);
  });

  it('needs profiles:write', async () => {
    const { token } = await tokenWith(['profiles:read']);
    const res = await call('/api/v1/profiles', { method: 'POST', token, body: { name: 'crud-scope' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 'auth.scope_missing', details: { missing: ['profiles:write'] } });
  });
});

describe('profile get, patch, delete', () => {
  it('reads a profile by id and 404s an unknown one', async () => {
    const p = await createProfile({ name: 'crud-get', tags: ['x'] });
    const { token } = await tokenWith(['profiles:read']);
    const res = await call(`/api/v1/profiles/${p.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(p);
    const missing = await call('/api/v1/profiles/no-such-profile');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({
      code: 'resource.not_found',
      details: { resource: 'profile', id: 'no-such-profile' },
    });
  });

  it('changes only the given fields and keeps the tag index in step', async () => {
    const p = await createProfile({ name: 'crud-patch', group: 'g1', tags: ['old'], notes: 'keep' });
    const res = await call(`/api/v1/profiles/${p.id}`, {
      method: 'PATCH',
      body: { name: 'crud-patched', group: null, tags: ['new1', 'new2'], pinned: true },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...p,
      name: 'crud-patched',
      group: null,
      tags: ['new1', 'new2'],
      pinned: true,
      updated_at: expect.any(Number),
    });
    expect(res.json.updated_at).toBeGreaterThanOrEqual(p.updated_at);
    const tags = (await rawRows('profile_tags'))
      .filter((r) => r.profile_no === p.no)
      .map((r) => r.tag)
      .sort();
    expect(tags).toEqual(['new1', 'new2']);
    expect((await call(`/api/v1/profiles/${p.id}`)).json).toEqual(res.json);
  });

  it('refuses a bad patch and an unknown profile', async () => {
    const p = await createProfile({ name: 'crud-patch-bad' });
    const bad = await call(`/api/v1/profiles/${p.id}`, { method: 'PATCH', body: { name: '' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('request.invalid');
    const unknown = await call('/api/v1/profiles/nope', { method: 'PATCH', body: { name: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('resource.not_found');
  });

  it('deletes with 204 and no body, then 404', async () => {
    const p = await createProfile({ name: 'crud-del', tags: ['gone'] });
    const res = await call(`/api/v1/profiles/${p.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call(`/api/v1/profiles/${p.id}`)).status).toBe(404);
    expect((await call(`/api/v1/profiles/${p.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await rawRows('profile_tags')).filter((r) => r.profile_no === p.no)).toEqual([]);
    const [entry] = (await auditRows('profiles.delete')).filter((r) => r.entity_id === p.id);
    expect(entry).toMatchObject({ entity_no: p.no, result: 'ok' });
  });
});
