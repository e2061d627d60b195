import type { Command } from 'commander';
import { ApiCallError } from '../client';
import { exitCodeFor } from '../exit-codes';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'run a Model Context Protocol server on stdin/stdout: one tool per API operation, called with LPA_URL and LPA_TOKEN; without LPA_TOKEN it refuses to start unless --admin is given',
    )
    .option('--admin', 'with LPA_TOKEN empty or unset, give the agent the admin token (the admin-token file of LPA_DATA_ROOT): every tool, every secret')
    .action(async (options: { admin?: boolean }) => {
      // Loaded only here: the server reads every route contract, which no other command needs.
      const { runMcpServer } = await import('../mcp/server');
      try {
        await runMcpServer(process.env, { admin: options.admin === true });
      } catch (error) {
        if (!(error instanceof ApiCallError)) throw error;
        process.stderr.write(`lpa mcp: ${error.code}: ${error.message}\n`);
        process.exitCode = exitCodeFor(error);
      }
    });
}
