import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { team as teamRoutes, type TeamVerification } from '../../contracts/team-link';
import { TEAM_FILE, TeamFile, TeamUrl } from '../../shared/team-link';
import { action, localAction, withJson, type JsonOption } from '../args';
import { ApiCallError } from '../client';
import { dataRootOf } from '../data-root';
import { EXIT } from '../exit-codes';
import { keyValues, show } from '../output';
import { whileWaiting } from '../progress';
import { readSecret, teamClient } from '../team-client';
import { teamPush } from './team-push';

const RESTART = 'restart `npm start` (or the Bun or Deno service) so that it reads the change';

/** A team URL, or a usage error (exit 2) before anything is written. */
function teamUrl(value: string): string {
  const url = TeamUrl.safeParse(value);
  if (!url.success)
    throw new InvalidArgumentError(
      'expected https://<host>/teams/<team_id> (or http://127.0.0.1:<port>/teams/<team_id> for a team service on this machine)',
    );
  return url.data;
}

/** The absolute path of a secret's file, which the service reads at start: it must hold something now. */
function secretFile(path: string): string {
  const absolute = resolve(path);
  readSecret(absolute);
  return absolute;
}

interface PushOptions extends JsonOption {
  adminTokenFile?: string;
}

interface JoinOptions extends JsonOption {
  tokenFile: string;
  accessClientId?: string;
  accessClientSecretFile?: string;
}

/** What `lpa team verify` prints: ok with what it compared, or the finding at its exact seq. */
function verdict(answer: TeamVerification): string {
  const head = answer.team_head ? `team head ${answer.team_head.seq}` : 'no team head';
  if (answer.ok)
    return `ok: ${answer.checked} witnessed heads match the team's chain (${head}; ${answer.unchecked} older than the team keeps)`;
  if (answer.finding === 'fork' || answer.finding === 'rolled_back') {
    return [
      `${answer.finding === 'fork' ? 'FORK' : 'ROLLED BACK'} at seq ${answer.fork_at}: the team's history was rewritten after this machine saw it`,
      keyValues({
        witnessed_hash: answer.witnessed_hash,
        team_hash: answer.team_hash,
        checked: answer.checked,
        team_head: head,
      }),
    ].join('\n');
  }
  return `${answer.finding === 'key_changed' ? "KEY CHANGED: the team's checkpoint is signed by another key (or for another store) than the one pinned" : "BAD SIGNATURE: the team's checkpoint does not verify with the pinned key"} (${head})`;
}

/**
 * `team join` writes `<data root>/team.json` (docs/teams.md#a-machine-in-a-team), `team leave` removes it;
 * `team status` and `team verify` ask this machine's service what it witnessed of the team's chain;
 * `team push` copies this machine's own store into the team (./team-push.ts).
 */
export function teamCommand(team: Command): void {
  withJson(
    team
      .command('join')
      .description(`join this machine's service to a team: writes <data root>/team.json (mode 0600); then ${RESTART}`)
      .argument('<url>', 'the team, https://<host>/teams/<team_id>', teamUrl)
      .requiredOption('--token-file <file>', "the file that holds this machine's team token (lpa never copies it)")
      .option(
        '--access-client-id <id>',
        'the client id of a Cloudflare Access service token, when Access stands in front of the team',
      )
      .option('--access-client-secret-file <file>', "the file that holds that service token's client secret"),
  ).action(
    localAction(async (url: string, options: JoinOptions, command: Command) => {
      if (Boolean(options.accessClientId) !== Boolean(options.accessClientSecretFile)) {
        command.error('error: --access-client-id and --access-client-secret-file go together');
      }
      const dataRoot = dataRootOf(process.env);
      const file = join(dataRoot, TEAM_FILE);
      if (existsSync(file))
        throw new ApiCallError(
          0,
          'cli.team_joined',
          `${file} exists: this machine is in a team; \`lpa team leave\` first`,
        );
      const link = TeamFile.parse({
        url,
        token_file: secretFile(options.tokenFile),
        ...(options.accessClientId
          ? {
              access_client_id: options.accessClientId,
              access_client_secret_file: secretFile(options.accessClientSecretFile!),
            }
          : {}),
      });
      mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
      writeFileSync(file, `${JSON.stringify(link, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600); // the mode given at creation is narrowed by the umask, never widened: said once more
      const overridden = process.env.LPA_TEAM_URL
        ? 'LPA_TEAM_URL is set in this shell: the service follows it, not team.json'
        : undefined;
      show(
        { team_file: file, ...link, next: RESTART, ...(overridden ? { warning: overridden } : {}) },
        options.json,
        ({ url: joined, ...rest }) => `joined ${joined}\n${keyValues(rest)}`,
      );
    }),
  );
  withJson(team.command('leave').description(`leave the team: removes <data root>/team.json; then ${RESTART}`)).action(
    localAction(async (options: JsonOption) => {
      const file = join(dataRootOf(process.env), TEAM_FILE);
      const left = existsSync(file);
      rmSync(file, { force: true });
      show(
        { team_file: file, left, next: left ? RESTART : 'nothing to do: this machine was not in a team' },
        options.json,
        keyValues,
      );
    }),
  );
  withJson(
    team.command('status').description("the team this machine joined and what it has witnessed of the team's chain"),
  ).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(teamRoutes.status), options.json, (a) =>
        keyValues({ ...a, witness: JSON.stringify(a.witness) }),
      );
    }),
  );
  withJson(
    team
      .command('verify')
      .description(
        "check the team's signed checkpoint and every head this machine witnessed against the team's chain; exit 1 on a fork",
      ),
  ).action(
    action(async (client, options: JsonOption) => {
      const answer = await whileWaiting(
        "comparing the witnessed heads with the team's chain",
        client.api(teamRoutes.verify),
      );
      show(answer, options.json, verdict);
      if (!answer.ok) process.exitCode = EXIT.failed;
    }),
  );
  withJson(
    team
      .command('push')
      .description(
        "copy this machine's own store (profiles with their accounts, globals with their revisions, flows, shares) into the team it links to, " +
          'under the same ids; a second push changes nothing; exit 8 on a conflict',
      )
      .option(
        '--admin-token-file <file>',
        "a file holding an admin team token for this push alone, when the link's team token is narrower; - reads it from standard input",
      ),
  ).action(
    action(async (client, options: PushOptions) => {
      const admin = options.adminTokenFile === undefined ? undefined : readSecret(options.adminTokenFile);
      await teamPush(client, teamClient(process.env, admin), options.json);
    }),
  );
}
