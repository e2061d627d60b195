import { Command } from 'commander';
import { membershipCommand } from './commands/membership';
import { profileAccountsCommand } from './commands/profile-accounts';
import { auditCommand } from './commands/audit';
import { filesCommand } from './commands/files';
import { flowsCommand } from './commands/flows';
import { globalsCommand } from './commands/globals';
import { logsCommand } from './commands/logs';
import { mcpCommand } from './commands/mcp';
import { profilesCommand } from './commands/profiles';
import { settingsCommands } from './commands/settings';
import { sharesCommand } from './commands/shares';
import { statusCommand } from './commands/status';
import { syncCommand } from './commands/sync';
import { tokensCommand } from './commands/tokens';
import { EXIT } from './exit-codes';
import { VERSION } from './version';

/** The `lpa` program: every command, its options and its help. Built here so that `npm run docs` can walk it. */
export function buildProgram(): Command {
  const program = new Command('lpa')
    .description('Command line of LPA. The service is LPA_URL (default http://127.0.0.1:8719); the token is LPA_TOKEN (default: the admin-token file of LPA_DATA_ROOT, ./data).')
    .version(VERSION, '-V, --version', 'print the version of lpa')
    .showHelpAfterError()
    .exitOverride((error) => process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage));
  for (const add of [
    statusCommand, membershipCommand, profilesCommand, profileAccountsCommand, globalsCommand, flowsCommand, sharesCommand, filesCommand,
    syncCommand, settingsCommands, auditCommand, tokensCommand, logsCommand, mcpCommand,
  ]) add(program);
  return program;
}
