import { beforeAll, describe, expect, it } from 'vitest';
import { DENIAL_WINDOW_MS, MAX_OPEN_WINDOWS } from '../../storage/audit/denials';
import type { AuditEntry, AuditList } from '../../storage/audit/schema';
import { createTeam, inBatches, inTeamObject, teamCall, teamPath, teamToken } from './support';

/** The number of teams the issue names: every one is tried against every other. */
const TEAMS = 64;
/** Requests in flight at once. */
const BATCH = 64;

/** What one team holds after setup, and what the test did in it, for the chain count. */
interface Team {
  id: string;
  owner: string;
  /** The address this team's scripts call from, when they try other teams. */
  ip: string;
  admin: { id: string; token: string };
  scoped: { id: string; token: string };
  profileId: string;
  accountId: string;
  flowId: string;
  shareCode: string;
  /** The seq of the entry of its profile's creation. */
  profileSeq: number;
  /** Audited actions the test did in this team (by action, result), besides the denials and the object's starts. */
  actions: Map<string, number>;
  /** The addresses whose tokens this team refused: its denial entries. */
  deniedClients: Set<string>;
}

const teams: Team[] = [];
const done = (team: Team, action: string, result: AuditEntry['result'] = 'ok') =>
  team.actions.set(`${action}:${result}`, (team.actions.get(`${action}:${result}`) ?? 0) + 1);

/** Every other team, for every team: the 64 × 63 pairs. */
const pairs = () => teams.flatMap((own) => teams.filter((other) => other !== own).map((other) => ({ own, other })));

async function ok<T>(res: Promise<{ status: number; json: T; text: string }>, status = 200): Promise<T> {
  const answer = await res;
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status} ${answer.text}`);
  return answer.json;
}

/** A team with a token of each kind, a profile with an account, a global, a flow and a share: each audited. */
async function setUp(index: number): Promise<Team> {
  const { teamId: id, owner } = await createTeam(`iso-${String(index).padStart(2, '0')}`);
  // The operator's creation: the owner, as the team's first member.
  const actions = new Map<string, number>([['members.write:ok', 1]]);
  const team = { id, owner, ip: `198.51.100.${index + 1}`, actions, deniedClients: new Set<string>() } as Team;
  team.admin = await teamToken(id, owner, [], true);
  team.scoped = await teamToken(id, owner, ['profiles:read']);
  done(team, 'tokens.create');
  done(team, 'tokens.create');
  const as = { token: team.admin.token };
  const path = (p: string) => teamPath(id, p);
  team.profileId = (
    await ok<{ id: string }>(
      teamCall(path('/profiles'), { ...as, method: 'POST', body: { name: `profile of ${id}` } }),
      201,
    )
  ).id;
  done(team, 'profiles.create');
  const account = teamCall(path(`/profiles/${team.profileId}/accounts`), {
    ...as,
    method: 'POST',
    body: { platform_url: 'https://shop.example', username: id, password: `pw-${id}` },
  });
  team.accountId = (await ok<{ id: string }>(account, 201)).id;
  done(team, 'profile_accounts.create');
  await ok(
    teamCall(path('/automation/globals/API_KEY'), {
      ...as,
      method: 'PUT',
      body: { value: `key-${id}`, expected_revision: 0 },
    }),
  );
  done(team, 'globals.write');
  team.flowId = (
    await ok<{ id: string }>(
      teamCall(path('/automation/flows'), {
        ...as,
        method: 'POST',
        body: { name: 'login', steps: [{ type: 'wait', ms: 1 }] },
      }),
      201,
    )
  ).id;
  done(team, 'flows.create');
  const share = teamCall(path('/automation/shares'), {
    ...as,
    method: 'POST',
    body: { ids: [team.flowId], name: 'login', expires_in_minutes: 60, max_uses: 5 },
  });
  team.shareCode = (await ok<{ code: string }>(share)).code;
  done(team, 'shares.create');
  const created = await ok<AuditList>(teamCall(path(`/audit?action=profiles.create&entity_id=${team.profileId}`), as));
  team.profileSeq = created.items[0]!.seq;
  return team;
}

/** The audit query that answers exactly one entry of `owner`: its profile's creation at its seq. */
const seqQuery = (owner: Team) =>
  `/audit?action=profiles.create&entity_id=${owner.profileId}&before_seq=${owner.profileSeq + 1}&limit=1`;

describe(`${TEAMS} teams, each tried against every other`, { timeout: 600_000 }, () => {
  beforeAll(async () => {
    const started = Date.now();
    teams.push(
      ...(await inBatches(
        Array.from({ length: TEAMS }, (_, i) => i),
        8,
        setUp,
      )),
    );
    console.log(`isolation: ${TEAMS} teams set up in ${Date.now() - started} ms`);
  }, 600_000);

  it('serves each team its own things: both tokens, the profile, the account, the flow, the seq', async () => {
    await inBatches(teams, 8, async (team) => {
      const as = { token: team.admin.token };
      const path = (p: string) => teamPath(team.id, p);
      await ok(teamCall(path('/profiles'), { token: team.scoped.token }));
      await ok(teamCall(path(`/profiles/${team.profileId}`), as));
      expect(await ok(teamCall(path(`/profiles/${team.profileId}/accounts/${team.accountId}/password`), as))).toEqual({
        password: `pw-${team.id}`,
      });
      done(team, 'profile_accounts.password_read');
      await ok(teamCall(path(`/automation/flows/${team.flowId}`), as));
      const page = await ok<AuditList>(teamCall(path(seqQuery(team)), as));
      expect(page.items.map((e) => [e.seq, e.entity_id])).toEqual([[team.profileSeq, team.profileId]]);
    });
  });

  it('takes no team token in another team: 401 for all 64 × 63 × 2', async () => {
    const started = Date.now();
    const statuses = new Map<string, number>();
    let successes = 0;
    // One team at a time is attacked, by all the others at once, so that its denials fall in one window of the coalescer.
    for (const target of teams) {
      const attempts = teams
        .filter((t) => t !== target)
        .flatMap((attacker) => [attacker.admin, attacker.scoped].map((token) => ({ attacker, token })));
      const burst = Date.now();
      const answers = await inBatches(attempts, 2 * BATCH, ({ attacker, token }) =>
        teamCall(teamPath(target.id, '/profiles'), { token: token.token, clientIp: attacker.ip }),
      );
      expect(Date.now() - burst).toBeLessThan(DENIAL_WINDOW_MS);
      for (const { attacker } of attempts) target.deniedClients.add(attacker.ip);
      for (const res of answers) {
        if (res.status < 400) successes += 1;
        const key = `${res.status} ${res.json?.error?.code}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    }
    console.log(`isolation: ${TEAMS * (TEAMS - 1) * 2} foreign-token requests in ${Date.now() - started} ms`);
    expect(successes).toBe(0);
    expect(Object.fromEntries(statuses)).toEqual({ '401 auth.token_invalid': TEAMS * (TEAMS - 1) * 2 });
  });

  it("finds no team's profile, account, flow or audit entry in another, asked with that team's own admin token", async () => {
    const started = Date.now();
    const answers = await inBatches(pairs(), BATCH / 4, async ({ own, other }) => {
      const as = { token: other.admin.token };
      const path = (p: string) => teamPath(other.id, p);
      const [profile, account, flow, seq] = await Promise.all([
        teamCall(path(`/profiles/${own.profileId}`), as),
        // The account under the other team's own profile: only the account id is foreign.
        teamCall(path(`/profiles/${other.profileId}/accounts/${own.accountId}/password`), as),
        teamCall(path(`/automation/flows/${own.flowId}`), as),
        teamCall(path(seqQuery(own)), as),
      ]);
      // A failed secret read is audited in the team that was asked.
      done(other, 'profile_accounts.password_read', 'error');
      return { profile, account, flow, seq };
    });
    console.log(`isolation: ${pairs().length * 4} foreign-id requests in ${Date.now() - started} ms`);
    const found = answers.filter(
      (a) => a.profile.status < 400 || a.account.status < 400 || a.flow.status < 400 || a.seq.json.items.length > 0,
    );
    expect(found).toHaveLength(0);
    const outcomes = new Set(
      answers.flatMap((a) => [a.profile, a.account, a.flow].map((res) => `${res.status} ${res.json.error?.code}`)),
    );
    expect([...outcomes]).toEqual(['404 resource.not_found']);
    expect(new Set(answers.map((a) => `${a.seq.status} ${a.seq.json.items.length}`))).toEqual(new Set(['200 0']));
  });

  it("redeems no team's share code in another team (each in the next team)", async () => {
    const answers = await inBatches(teams, BATCH, async (own) => {
      const other = teams[(teams.indexOf(own) + 1) % teams.length]!;
      const res = await teamCall(teamPath(other.id, '/automation/shares/redeem'), {
        token: other.admin.token,
        method: 'POST',
        body: { code: own.shareCode },
      });
      done(other, 'shares.redeem', 'error');
      return `${res.status} ${res.json.error?.code}`;
    });
    expect(new Set(answers)).toEqual(new Set(['404 shares.code_unknown']));
  });

  it("keeps in each team's chain exactly its own actions, and the chain verifies", async () => {
    await inBatches(teams, 8, async (team) => {
      const entries = await allEntries(team);
      // The object's own starts: one at creation, and one each time the runtime started it again after
      // evicting it while idle (as workerd does here within a minute, and Cloudflare does too); none names a request.
      const starts = entries.filter((e) => e.action === 'service.start');
      expect(starts.length).toBeGreaterThanOrEqual(1);
      for (const start of starts)
        expect(start).toMatchObject({ actor_type: 'system', source: 'system', request_id: null, result: 'ok' });
      const actions = new Map<string, number>();
      for (const entry of entries.filter((e) => e.action !== 'auth.denied' && e.action !== 'service.start')) {
        actions.set(`${entry.action}:${entry.result}`, (actions.get(`${entry.action}:${entry.result}`) ?? 0) + 1);
      }
      expect(Object.fromEntries(actions), team.id).toEqual(Object.fromEntries(team.actions));
      // The coalescer writes the first denial of each client at once, up to its bound of open windows, then one shared window.
      const clients = team.deniedClients.size;
      const denials = entries.filter((e) => e.action === 'auth.denied');
      expect(denials).toHaveLength(Math.min(clients, MAX_OPEN_WINDOWS) + (clients > MAX_OPEN_WINDOWS ? 1 : 0));
      for (const denial of denials) {
        expect(denial).toMatchObject({ actor_type: 'anonymous', result: 'denied', error_code: 'auth.token_invalid' });
        expect(denial.details!.client_ip === '*' || team.deniedClients.has(denial.details!.client_ip as string)).toBe(
          true,
        );
      }
      // Every seq from 1 on is this team's: no gap, nothing interleaved from another team.
      expect(entries.map((e) => e.seq).sort((a, b) => a - b)).toEqual(entries.map((_, i) => i + 1));
      const verify = await ok<{ ok: boolean; checked: number }>(
        teamCall(teamPath(team.id, '/audit/verify'), { token: team.admin.token }),
      );
      expect(verify).toMatchObject({ ok: true, checked: entries.length });
    });
  });
});

/** Every entry of a team's chain, page by page. */
async function allEntries(team: Team): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let before: number | null = null;
  do {
    const query: string = before === null ? '?limit=1000' : `?limit=1000&before_seq=${before}`;
    const page: AuditList = await ok<AuditList>(
      teamCall(teamPath(team.id, `/audit${query}`), { token: team.admin.token }),
    );
    entries.push(...page.items);
    before = page.next_before_seq;
  } while (before !== null);
  return entries;
}

describe('the token cache, one per team in module state', () => {
  it("refuses a token revoked in team A at once, while team B's token of the same name keeps working", async () => {
    const [a, b] = await Promise.all([createTeam('cache-a'), createTeam('cache-b')]);
    const [tokenA, tokenB] = await Promise.all(
      [a, b].map((t) => teamToken(t.teamId, t.owner, ['profiles:read'], false, 'deploy')),
    );
    // Both used once, so that each team's cache holds its token.
    expect((await teamCall(teamPath(a.teamId, '/profiles'), { token: tokenA!.token })).status).toBe(200);
    expect((await teamCall(teamPath(b.teamId, '/profiles'), { token: tokenB!.token })).status).toBe(200);
    const admin = await teamToken(a.teamId, a.owner, [], true);
    expect(
      (await teamCall(teamPath(a.teamId, `/tokens/${tokenA!.id}`), { method: 'DELETE', token: admin.token })).status,
    ).toBe(200);
    const revoked = await teamCall(teamPath(a.teamId, '/profiles'), { token: tokenA!.token });
    expect([revoked.status, revoked.json.error.code]).toEqual([401, 'auth.token_invalid']);
    expect((await teamCall(teamPath(b.teamId, '/profiles'), { token: tokenB!.token })).status).toBe(200);
    // Nor does team B's token open team A, or the revoked one team B.
    expect((await teamCall(teamPath(a.teamId, '/profiles'), { token: tokenB!.token })).status).toBe(401);
    expect((await teamCall(teamPath(b.teamId, '/profiles'), { token: tokenA!.token })).status).toBe(401);
  });
});

describe("the one-verify-at-a-time slot, one per team in the team's object", () => {
  it("lets team B verify while team A's verify runs, and still refuses a second verify of team A", async () => {
    const [a, b] = await Promise.all([createTeam('verify-a'), createTeam('verify-b')]);
    const [tokenA, tokenB] = await Promise.all([a, b].map((t) => teamToken(t.teamId, t.owner, [], true)));
    // Team A's verify is held before its first slice: its object's client waits for the gate once.
    let held!: () => void;
    const gate = new Promise<void>((resolve) => (held = resolve));
    let reached = false;
    await inTeamObject(a.teamId, (instance) => {
      const audit = instance.object!.started.client.audit;
      const slice = audit.verifySlice;
      audit.verifySlice = async (cursor) => {
        audit.verifySlice = slice;
        reached = true;
        await gate;
        return slice(cursor);
      };
    });
    const verify = async (teamId: string, token: string) => {
      const res = await teamCall(teamPath(teamId, '/audit/verify'), { token, clientIp: '192.0.2.1' });
      return { status: res.status, json: res.json as { ok?: boolean; error?: { code: string } } };
    };
    const first = verify(a.teamId, tokenA!.token);
    while (!reached) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await verify(b.teamId, tokenB!.token)).toMatchObject({ status: 200, json: { ok: true } });
    expect(await verify(a.teamId, tokenA!.token)).toMatchObject({
      status: 429,
      json: { error: { code: 'audit.verify_busy' } },
    });
    held();
    expect(await first).toMatchObject({ status: 200, json: { ok: true } });
  });
});
