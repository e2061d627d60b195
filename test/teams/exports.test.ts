import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_EXPORTS } from '../../handlers/audit-export';
import { TEAM_BASE_URL, TEAM_TEST_HOST } from './constants';
import { createTeam, teamPath, teamToken } from './support';

const worker = exports.default as unknown as { fetch: (url: string, init: RequestInit) => Promise<Response> };

/** An export of a team, answered but not read: its body still holds the export's slot. */
const heldExport = (teamId: string, token: string) =>
  worker.fetch(`${TEAM_BASE_URL}${teamPath(teamId, '/audit/export?format=jsonl')}`, {
    headers: { host: TEAM_TEST_HOST, authorization: `Bearer ${token}`, 'cf-connecting-ip': '203.0.113.9' },
  });

describe("export slots are each team's own (its object's memory), not one pool per isolate", () => {
  it(`three teams run ${MAX_CONCURRENT_EXPORTS} exports each at once in one isolate; each gets all of its own`, async () => {
    const teams = await Promise.all(['slots-a', 'slots-b', 'slots-c'].map((id) => createTeam(id)));
    const tokens = await Promise.all(teams.map((t) => teamToken(t.teamId, t.owner, [], true)));
    const held = await Promise.all(
      teams.flatMap((team, i) =>
        Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => heldExport(team.teamId, tokens[i]!.token)),
      ),
    );
    expect(held.map((res) => res.status)).toEqual(held.map(() => 200));
    // Every slot of team A is held: its next export waits its turn, while B's and C's are not touched.
    const refused = await heldExport(teams[0]!.teamId, tokens[0]!.token);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('audit.export_busy');
    for (const res of held) expect(((await res.json()) as { count: number }).count).toBeGreaterThan(0);
  });
});
