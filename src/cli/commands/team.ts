import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { TEAM_FILE, TeamFile, TeamUrl } from '../../shared/team-link';
import { localAction, withJson, type JsonOption } from '../args';
import { ApiCallError } from '../client';
import { dataRootOf } from '../data-root';
import { keyValues, show } from '../output';

const RESTART = 'restart `npm start` (or the Bun or Deno service) so that it reads the change';

/** A team URL, or a usage error (exit 2) before anything is written. */
function teamUrl(value: string): string {
  const url = TeamUrl.safeParse(value);
  if (!url.success) throw new InvalidArgumentError('expected https://<host>/teams/<team_id> (or http://127.0.0.1:<port>/teams/<team_id> for a team service on this machine)');
  return url.data;
}

/** The absolute path of a secret's file, which the service reads at start: it must hold something now. */
function secretFile(path: string): string {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new ApiCallError(0, 'cli.file_unreadable', `${absolute}: ${(error as Error).message}`);
  }
  if (!text.trim()) throw new ApiCallError(0, 'cli.value_missing', `${absolute} is empty`);
  return absolute;
}

interface JoinOptions extends JsonOption {
  tokenFile: string;
  accessClientId?: string;
  accessClientSecretFile?: string;
}

/** `team join` writes `<data root>/team.json` (docs/teams.md#a-machine-in-a-team); `team leave` removes it. */
export function teamCommand(team: Command): void {
  withJson(
    team
      .command('join')
      .description(`join this machine's service to a team: writes <data root>/team.json (mode 0600); then ${RESTART}`)
      .argument('<url>', 'the team, https://<host>/teams/<team_id>', teamUrl)
      .requiredOption('--token-file <file>', "the file that holds this machine's team token (lpa never copies it)")
      .option('--access-client-id <id>', 'the client id of a Cloudflare Access service token, when Access stands in front of the team')
      .option('--access-client-secret-file <file>', "the file that holds that service token's client secret"),
  ).action(
    localAction(async (url: string, options: JoinOptions, command: Command) => {
      if (Boolean(options.accessClientId) !== Boolean(options.accessClientSecretFile)) {
        command.error('error: --access-client-id and --access-client-secret-file go together');
      }
      const dataRoot = dataRootOf(process.env);
      const file = join(dataRoot, TEAM_FILE);
      if (existsSync(file)) throw new ApiCallError(0, 'cli.team_joined', `${file} exists: this machine is in a team; \`lpa team leave\` first`);
      const link = TeamFile.parse({
        url,
        token_file: secretFile(options.tokenFile),
        ...(options.accessClientId ? { access_client_id: options.accessClientId, access_client_secret_file: secretFile(options.accessClientSecretFile!) } : {}),
      });
      mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
      writeFileSync(file, `${JSON.stringify(link, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600); // the mode given at creation is narrowed by the umask, never widened: said once more
      const overridden = process.env.LPA_TEAM_URL ? 'LPA_TEAM_URL is set in this shell: the service follows it, not team.json' : undefined;
      show({ team_file: file, ...link, next: RESTART, ...(overridden ? { warning: overridden } : {}) }, options.json, ({ url: joined, ...rest }) => `joined ${joined}\n${keyValues(rest)}`);
    }),
  );
  withJson(team.command('leave').description(`leave the team: removes <data root>/team.json; then ${RESTART}`)).action(
    localAction(async (options: JsonOption) => {
      const file = join(dataRootOf(process.env), TEAM_FILE);
      const left = existsSync(file);
      rmSync(file, { force: true });
      show({ team_file: file, left, next: left ? RESTART : 'nothing to do: this machine was not in a team' }, options.json, keyValues);
    }),
  );
}
