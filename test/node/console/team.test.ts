/**
 * The Audit page's Team part on a machine joined to a team (docs/teams.md#audit-across-machines): the
 * team, the machine's id, what it has witnessed of the team's chain, and the witness check, run from
 * the page against a real `npm run start:team`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { raw } from '../service';
import { adminTeamToken, createTeam, startTeamService } from '../team-service';
import { expectAccessible, goTo, noChromium, signIn, useConsole } from './browser';

const TEAM = 'console';
const OWNER = 'owner@console.example';

/** The team, and the file of the admin team token the machine joins with; started while the file is collected. */
async function startTeam() {
  const work = mkdtempSync(join(tmpdir(), 'lpa-console-team-'));
  const team = await startTeamService(join(work, 'team'));
  const created = await createTeam(team, TEAM, OWNER);
  if (created.status !== 201) {
    await team.stop();
    throw new Error(`the team was not created: ${created.status} ${JSON.stringify(created.json)}`);
  }
  const tokenFile = join(work, 'machine.token');
  writeFileSync(tokenFile, `${(await adminTeamToken(team, TEAM, OWNER, 'machine')).token}\n`, { mode: 0o600 });
  return { work, team, tokenFile };
}

const joined = noChromium ? null : await startTeam();
afterAll(async () => {
  await joined?.team.stop();
  if (joined) rmSync(joined.work, { recursive: true, force: true });
}, 60_000);

describe.skipIf(noChromium)('the console: a machine in a team', { timeout: 180_000 }, () => {
  const teamUrl = `http://127.0.0.1:${joined?.team.port}/teams/${TEAM}`;
  const web = useConsole('workerd', { LPA_TEAM_URL: teamUrl, LPA_TEAM_TOKEN_FILE: joined?.tokenFile ?? '' });

  it('shows the team link and runs the witness check from the page', async () => {
    // A change through the machine is answered by the team, whose head the machine witnesses.
    const created = await raw(web.svc.current.port, '/api/v1/profiles', {
      method: 'POST',
      headers: { ...web.svc.auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'in the team' }),
    });
    expect(created.status).toBe(201);
    const link = (await raw(web.svc.current.port, '/api/v1/team', { headers: web.svc.auth() })).json;
    expect(link).toMatchObject({ joined: true, url: teamUrl });
    expect(link.witness.heads).toBeGreaterThan(0);

    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Audit');
    const team = page.getByRole('region', { name: 'Team' });
    await expect.poll(() => team.textContent()).toContain(link.machine_id);
    expect(await team.textContent()).toContain(teamUrl);
    await team.getByRole('button', { name: 'Check the witness' }).click();
    const verdict = team.getByRole('status', { name: 'Witness check' });
    await expect.poll(() => verdict.textContent()).toMatch(/^ok: \d+ witnessed heads compared/);
    // The check pinned the team's key: the part shows it.
    await expect.poll(() => team.textContent()).not.toContain('Pinned key idnone');
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
