import { Command } from 'commander';
import { auditCommand } from './commands/audit';
import { globalsCommand } from './commands/globals';
import { logsCommand } from './commands/logs';
import { profilesCommand } from './commands/profiles';
import { statusCommand } from './commands/status';
import { tokensCommand } from './commands/tokens';

const program = new Command('lpa')
  .description('Command line of LPA. The service is LPA_URL (default http://127.0.0.1:8719); the token is LPA_TOKEN (default: the admin-token file of LPA_DATA_ROOT, ./data).')
  .showHelpAfterError()
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

for (const add of [statusCommand, profilesCommand, auditCommand, globalsCommand, tokensCommand, logsCommand]) add(program);

await program.parseAsync(process.argv);
