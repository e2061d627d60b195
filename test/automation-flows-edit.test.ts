import { describe, expect, it } from 'vitest';
import { call, tokenWith } from './support/api';
import { createFlow, expectError } from './support/automation';
import { auditOf, tablesHolding } from './support/automation-store';
import { inStore, sql } from './support/store';

const FLOWS = '/api/v1/automation/flows';
const patch = (id: string, body: unknown, token?: string) => call(`${FLOWS}/${id}`, { method: 'PATCH', body, token });
const read = async (id: string) => (await call(`${FLOWS}/${id}`)).json;
/** The audit entry of one request: a refused change has no entity, only its request id. */
const auditedAs = async (res: { json: { request_id: string } }) =>
  sql('SELECT action, result, error_code FROM audit_log WHERE request_id = ?', res.json.request_id);
const secretOf = (id: string, name: string) => inStore(({ store }) => store.flows.protectedValue(id, name));

describe('editing a flow', () => {
  it('changes only the given fields and answers the whole flow, audited with the names of the fields', async () => {
    const id = await createFlow({
      name: 'before',
      group: 'shop',
      description: 'Signs in',
      steps: [{ type: 'open_url', url: 'https://example.test' }],
      values: [{ name: 'user', value: 'alice' }],
    });
    const original = await read(id);
    const res = await patch(id, { name: 'after', description: null, is_template: true });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...original,
      name: 'after',
      description: null,
      is_template: true,
      updated_at: expect.any(Number),
    });
    expect(res.json.updated_at).toBeGreaterThanOrEqual(original.updated_at);
    expect(await read(id)).toEqual(res.json);
    const listed = (await call(FLOWS)).json.items.find((f: { id: string }) => f.id === id);
    expect(listed).toMatchObject({ name: 'after', step_count: 1, value_count: 1, updated_at: res.json.updated_at });
    expect(await auditOf('flows.update', id)).toEqual([
      expect.objectContaining({
        result: 'ok',
        category: 'account',
        entity_type: 'flow',
        details: { name: 'after', fields: ['description', 'is_template', 'name'] },
      }),
    ]);
  });

  it('replaces the steps and the values as a whole; the counts follow', async () => {
    const id = await createFlow({
      name: 'lists',
      steps: [{ type: 'wait', ms: 1 }],
      values: [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
    });
    const steps = [
      { type: 'open_url', url: 'https://${host}/' },
      { type: 'click', selector: '#go' },
    ];
    const res = await patch(id, { steps, values: [{ name: 'c', value: '3' }] });
    expect(res.status).toBe(200);
    expect(res.json.steps).toEqual(steps);
    expect(res.json.values).toEqual([{ name: 'c', value: '3', protected: false, value_set: true }]);
    const listed = (await call(FLOWS)).json.items.find((f: { id: string }) => f.id === id);
    expect(listed).toMatchObject({ step_count: 2, value_count: 1 });
  });

  it('keeps a protected value sent without its value, seals a new one, removes one sent as null, never shows one', async () => {
    const id = await createFlow({
      name: 'secrets',
      steps: [],
      values: [
        { name: 'password', value: 'EDIT-KEPT-5e1f', protected: true },
        { name: 'api_key', value: 'EDIT-OLD-77aa', protected: true },
        { name: 'pin', value: 'EDIT-DROPPED-0c3b', protected: true },
        { name: 'user', value: 'alice' },
      ],
    });
    const res = await patch(id, {
      name: 'secrets, edited',
      values: [
        { name: 'password', protected: true },
        { name: 'api_key', value: 'EDIT-NEW-91bd', protected: true },
        { name: 'pin', value: null, protected: true },
        { name: 'user' },
        { name: 'token', value: 'EDIT-ADDED-2a4c', protected: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.values).toEqual([
      { name: 'password', value: null, protected: true, value_set: true },
      { name: 'api_key', value: null, protected: true, value_set: true },
      { name: 'pin', value: null, protected: true, value_set: false },
      { name: 'user', value: 'alice', protected: false, value_set: true },
      { name: 'token', value: null, protected: true, value_set: true },
    ]);
    for (const secret of ['EDIT-KEPT-5e1f', 'EDIT-NEW-91bd', 'EDIT-DROPPED-0c3b', 'EDIT-ADDED-2a4c']) {
      expect(res.text).not.toContain(secret);
      expect(await tablesHolding(secret)).toEqual([]);
    }
    expect(await read(id)).toEqual(res.json);
    expect(await secretOf(id, 'password')).toBe('EDIT-KEPT-5e1f');
    expect(await secretOf(id, 'api_key')).toBe('EDIT-NEW-91bd');
    expect(await secretOf(id, 'pin')).toBeNull();
    expect(await secretOf(id, 'token')).toBe('EDIT-ADDED-2a4c');
    // An edit that leaves `values` out leaves every value as it was.
    expect((await patch(id, { group: 'g' })).json.values).toEqual(res.json.values);
    expect(await secretOf(id, 'password')).toBe('EDIT-KEPT-5e1f');
  });

  it('never turns a protected value into a plain one: made plain without a value, it has none', async () => {
    const id = await createFlow({
      name: 'unprotect',
      steps: [],
      values: [
        { name: 'secret', value: 'EDIT-NEVER-SHOWN-4d2e', protected: true },
        { name: 'plain', value: 'was-plain' },
      ],
    });
    const res = await patch(id, { values: [{ name: 'secret' }, { name: 'plain', protected: true }] });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('EDIT-NEVER-SHOWN-4d2e');
    expect(res.json.values).toEqual([
      { name: 'secret', value: null, protected: false, value_set: false },
      { name: 'plain', value: null, protected: true, value_set: true },
    ]);
    // A plain value made protected is sealed from then on.
    expect(await secretOf(id, 'plain')).toBe('was-plain');
    expect(await tablesHolding('EDIT-NEVER-SHOWN-4d2e')).toEqual([]);
  });

  it('changes the dependencies: unknown flows and cycles are refused, and nothing is written', async () => {
    const base = await createFlow({ name: 'edit-base', steps: [] });
    const middle = await createFlow({ name: 'edit-middle', steps: [], dependencies: [base] });
    const top = await createFlow({ name: 'edit-top', steps: [], dependencies: [middle] });
    const before = await read(base);

    const unknown = await patch(base, { name: 'renamed', dependencies: ['ghost-1', top, 'ghost-2'] });
    expectError(unknown, 400, 'flows.unknown');
    expect(unknown.json.error.details).toEqual({ ids: ['ghost-1', 'ghost-2'] });

    const cycle = await patch(base, { name: 'renamed', dependencies: [top] });
    expectError(cycle, 400, 'flows.dependency_cycle');
    expect(cycle.json.error.details).toEqual({ cycle: [base, top, middle, base] });

    const itself = await patch(base, { dependencies: [base] });
    expectError(itself, 400, 'flows.dependency_cycle');
    expect(itself.json.error.details).toEqual({ cycle: [base, base] });

    expect(await read(base)).toEqual(before);
    for (const [res, code] of [
      [unknown, 'flows.unknown'],
      [cycle, 'flows.dependency_cycle'],
      [itself, 'flows.dependency_cycle'],
    ] as const)
      expect(await auditedAs(res)).toEqual([{ action: 'flows.update', result: 'error', error_code: code }]);

    // A dependency that closes no cycle is taken, and counts when the other is deleted.
    const other = await createFlow({ name: 'edit-other', steps: [] });
    expect((await patch(top, { dependencies: [middle, other] })).json.dependencies).toEqual([middle, other]);
    expectError(await call(`${FLOWS}/${other}`, { method: 'DELETE' }), 409, 'flows.has_dependents');
    expect((await patch(top, { dependencies: [] })).json.dependencies).toEqual([]);
    expect((await call(`${FLOWS}/${other}`, { method: 'DELETE' })).json).toEqual({ ok: true });
  });

  it.each([
    ['an empty body', {}],
    ['an unknown field', { owner: 'me' }],
    ['an empty name', { name: '' }],
    ['null as the name', { name: null }],
    ['steps that are not a list', { steps: { type: 'wait', ms: 1 } }],
    ['a step of an unknown type', { steps: [{ type: 'hover', selector: '#a' }] }],
    ['a click without its selector', { steps: [{ type: 'click' }] }],
    ['two values of one name', { values: [{ name: 'v' }, { name: 'v' }] }],
    ['an unknown value field', { values: [{ name: 'v', secret: true }] }],
    ['a dependency listed twice', { dependencies: ['a', 'a'] }],
    ['an id for a created_at', { created_at: 1 }],
  ])('refuses %s with request.invalid, changing nothing', async (_, body) => {
    const id = await createFlow({ name: 'untouched', steps: [{ type: 'wait', ms: 1 }] });
    const before = await read(id);
    expectError(await patch(id, body), 400, 'request.invalid');
    expect(await read(id)).toEqual(before);
  });

  it('answers 404 for an unknown flow, 400 for a body that is not JSON', async () => {
    const missing = await patch('no-such-flow', { name: 'x' });
    expectError(missing, 404, 'resource.not_found');
    expect(await auditedAs(missing)).toEqual([
      { action: 'flows.update', result: 'error', error_code: 'resource.not_found' },
    ]);
    const id = await createFlow({ name: 'json', steps: [] });
    expectError(await patch(id, '{"name": '), 400, 'request.malformed_json');
  });

  it('needs rpa:write', async () => {
    const id = await createFlow({ name: 'scoped', steps: [] });
    const reader = await tokenWith(['runtime:control']);
    const res = await patch(id, { name: 'x' }, reader.token);
    expectError(res, 403, 'auth.scope_missing');
    expect(res.json.error.details.missing).toEqual(['rpa:write']);
    const writer = await tokenWith(['runtime:control', 'rpa:write']);
    expect((await patch(id, { name: 'renamed' }, writer.token)).json.name).toBe('renamed');
  });
});
