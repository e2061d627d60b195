import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditAction } from '../storage/audit/actions';
import type { AuditContext } from '../storage/audit/entry';
import { MemberEmail } from '../storage/members/schema';
import { ApiError } from '../src/shared/errors/api-error';
import { memberPrincipal } from '../src/teams/roles';
import { call } from './support/api';
import { verify } from './support/audit';
import { inStore, sql } from './support/store';

/**
 * The members family, called in the store's Durable Object as the team service's handlers call it.
 * A store is one team; each test starts with a team that has no members.
 */
const at = (name: string) => `${name}@team.example`;

/** The audit context of a request made by the owner `label`; its request id finds its entry. */
const by = (label: string, action: AuditAction): AuditContext => ({
  actor: memberPrincipal(label, 'owner').actor,
  source: 'api',
  request_id: crypto.randomUUID(),
  action,
});

const set = (audit: AuditContext, email: string, role: 'owner' | 'admin' | 'member') =>
  inStore(({ store }) => store.members.set(audit, email, role));
const remove = (audit: AuditContext, email: string) => inStore(({ store }) => store.members.remove(audit, email));
const list = () => inStore(({ store }) => store.members.list());
const role = (email: string) => inStore(({ store }) => store.members.role(email));

/** The error code a call fails with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: unknown) => (error instanceof ApiError ? `${error.status} ${error.code}` : String(error)),
  );

const entryOf = (audit: AuditContext) =>
  sql<Record<string, unknown>>(
    'SELECT actor_type, actor_id, actor_label, action, category, entity_type, entity_id, details, result FROM audit_log WHERE request_id = ?',
    audit.request_id!,
  );

describe('the members of a team', () => {
  beforeEach(() => sql('DELETE FROM members'));

  it('adds, changes, lists and removes members, each change audited with its member actor', async () => {
    const owner = at('owner');
    const write = by(owner, 'members.write');
    const added = await set(write, owner, 'owner');
    expect(added).toEqual({
      email: owner,
      role: 'owner',
      created_at: expect.any(Number),
      updated_at: added.created_at,
    });
    expect(await entryOf(write)).toEqual([
      {
        actor_type: 'member',
        actor_id: null,
        actor_label: owner,
        action: 'members.write',
        category: 'team',
        entity_type: 'member',
        entity_id: owner,
        details: JSON.stringify({ role: 'owner' }),
        result: 'ok',
      },
    ]);

    await set(by(owner, 'members.write'), at('ada'), 'member');
    const promote = by(owner, 'members.write');
    const promoted = await set(promote, at('ada'), 'admin');
    expect(promoted.role).toBe('admin');
    expect(promoted.updated_at).toBeGreaterThanOrEqual(promoted.created_at);
    expect(await entryOf(promote)).toMatchObject([
      { entity_id: at('ada'), details: JSON.stringify({ role: 'admin' }) },
    ]);
    expect(await role(at('ada'))).toBe('admin');

    expect((await list()).map(({ email, role }) => [email, role])).toEqual([
      [at('ada'), 'admin'],
      [owner, 'owner'],
    ]);

    const removal = by(owner, 'members.delete');
    await remove(removal, at('ada'));
    expect(await role(at('ada'))).toBeNull();
    expect(await entryOf(removal)).toMatchObject([
      {
        actor_type: 'member',
        actor_label: owner,
        action: 'members.delete',
        category: 'team',
        entity_type: 'member',
        entity_id: at('ada'),
        details: JSON.stringify({ role: 'admin' }),
      },
    ]);
  });

  it('answers 404 resource.not_found for removing someone who is not a member, and writes no entry', async () => {
    const removal = by(at('owner'), 'members.delete');
    expect(await failure(remove(removal, at('nobody')))).toBe('404 resource.not_found');
    expect(await entryOf(removal)).toEqual([]);
    expect(await role(at('nobody'))).toBeNull();
  });

  it('keeps the last owner: neither removed nor demoted (409 members.last_owner), until another owner exists', async () => {
    const [owner, second] = [at('owner'), at('second')];
    await set(by(owner, 'members.write'), owner, 'owner');

    const removal = by(owner, 'members.delete');
    expect(await failure(remove(removal, owner))).toBe('409 members.last_owner');
    expect(await entryOf(removal)).toEqual([]);
    for (const lower of ['admin', 'member'] as const) {
      expect(await failure(set(by(owner, 'members.write'), owner, lower))).toBe('409 members.last_owner');
    }
    expect(await role(owner)).toBe('owner');
    // Making the last owner owner again changes nothing, so it is allowed.
    expect((await set(by(owner, 'members.write'), owner, 'owner')).role).toBe('owner');

    await set(by(owner, 'members.write'), second, 'owner');
    expect((await set(by(owner, 'members.write'), owner, 'member')).role).toBe('member');
    expect(await failure(remove(by(owner, 'members.delete'), second))).toBe('409 members.last_owner');
    await set(by(second, 'members.write'), owner, 'owner');
    await remove(by(owner, 'members.delete'), second);
    expect(await role(second)).toBeNull();
    expect(await role(owner)).toBe('owner');
  });

  it('is audited like every change: the chain verifies and the entries filter by actor type', async () => {
    const write = by(at('owner'), 'members.write');
    await set(write, at('owner'), 'owner');
    expect(await verify()).toMatchObject({ ok: true, first_bad_seq: null });
    const res = await call(`/api/v1/audit?actor_type=member&action=members.write&limit=200`);
    expect(res.status).toBe(200);
    expect((res.json.items as { request_id: string }[]).map((entry) => entry.request_id)).toContain(write.request_id);
  });
});

describe('a member name', () => {
  it.each([
    ['Ada@Example.COM', 'ada@example.com'],
    ['first.last+lpa@mail.example.co.uk', 'first.last+lpa@mail.example.co.uk'],
    ['88bf3b6d86161464f6509f7219099e57.access', '88bf3b6d86161464f6509f7219099e57.access'],
  ])('takes %s as %s', (input, parsed) => {
    expect(MemberEmail.parse(input)).toBe(parsed);
  });

  it.each([
    '',
    'ada',
    'ada@',
    '@example.com',
    'ada@localhost',
    'ada@@example.com',
    'a da@example.com',
    'ada@exa_mple.com',
    '.ada@example.com',
    'ada.@example.com',
    'a..da@example.com',
    'ada@-example.com',
    'ada@example.com ',
    'ada/../x@example.com',
    'ada%40x@example.com',
    'ada@example.com\n',
    `${'a'.repeat(65)}@example.com`,
    `ada@${'a'.repeat(250)}.com`,
    'short.access',
    'token@x.access.',
    // Characters that lower-case to ASCII (KELVIN SIGN, dotted capital I), and one that folds to it (long s).
    '\u212Aelvin@acme.example',
    'kelvin@acme.\u212Axample',
    '\u0130da@example.com',
    '\u017Fam@example.com',
    'abcdef01\u212A.access',
  ])('refuses %j', (input) => {
    expect(MemberEmail.safeParse(input).success).toBe(false);
  });
});

describe('the role table', () => {
  it('makes owners and admins admin sessions and gives a member its scopes', () => {
    expect(memberPrincipal('o@example.com', 'owner')).toEqual({
      actor: { type: 'member', id: null, label: 'o@example.com' },
      scopes: [],
      admin: true,
    });
    expect(memberPrincipal('a@example.com', 'admin')).toMatchObject({ admin: true });
    expect(memberPrincipal('m@example.com', 'member')).toEqual({
      actor: { type: 'member', id: null, label: 'm@example.com' },
      scopes: ['profiles:read', 'profiles:write', 'rpa:write'],
      admin: false,
    });
  });
});
