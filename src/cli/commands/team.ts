import type { Command } from 'commander';
import { team as teamRoutes, type TeamVerification } from '../../contracts/team';
import { action, withJson, type JsonOption } from '../args';
import { EXIT } from '../exit-codes';
import { keyValues, show } from '../output';
import { whileWaiting } from '../progress';

/** What `lpa team verify` prints: ok with what it compared, or the finding at its exact seq. */
function verdict(answer: TeamVerification): string {
  const head = answer.team_head ? `team head ${answer.team_head.seq}` : 'no team head';
  if (answer.ok) return `ok: ${answer.checked} witnessed heads match the team's chain (${head}; ${answer.unchecked} older than the team keeps)`;
  if (answer.finding === 'fork' || answer.finding === 'rolled_back') {
    return [
      `${answer.finding === 'fork' ? 'FORK' : 'ROLLED BACK'} at seq ${answer.fork_at}: the team's history was rewritten after this machine saw it`,
      keyValues({ witnessed_hash: answer.witnessed_hash, team_hash: answer.team_hash, checked: answer.checked, team_head: head }),
    ].join('\n');
  }
  return `${answer.finding === 'key_changed' ? "KEY CHANGED: the team's checkpoint is signed by another key (or for another store) than the one pinned" : "BAD SIGNATURE: the team's checkpoint does not verify with the pinned key"} (${head})`;
}

export function teamCommand(team: Command): void {
  withJson(team.command('status').description("the team this machine joined and what it has witnessed of the team's chain")).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(teamRoutes.status), options.json, (a) => keyValues({ ...a, witness: JSON.stringify(a.witness) }));
    }),
  );
  withJson(
    team.command('verify').description("check the team's signed checkpoint and every head this machine witnessed against the team's chain; exit 1 on a fork"),
  ).action(
    action(async (client, options: JsonOption) => {
      const answer = await whileWaiting("comparing the witnessed heads with the team's chain", client.api(teamRoutes.verify));
      show(answer, options.json, verdict);
      if (!answer.ok) process.exitCode = EXIT.failed;
    }),
  );
}
