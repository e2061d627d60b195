import type { Command } from 'commander';
import { ApiCallError } from '../client';
import { exitCodeFor } from '../exit-codes';
import { escapeUnsafe } from '../../shared/unicode';

export function mcpCommand(mcp: Command): void {
  mcp
    .option(
      '--admin',
      'with LPA_TOKEN empty or unset, give the agent the admin token (the admin-token file of LPA_DATA_ROOT): every tool, every secret',
    )
    .action(async (options: { admin?: boolean }) => {
      // Loaded only when it runs, not for `lpa mcp --help`: the server reads every route contract and the MCP SDK.
      const { runMcpServer } = await import('../mcp/server');
      try {
        await runMcpServer(process.env, { admin: options.admin === true });
      } catch (error) {
        if (!(error instanceof ApiCallError)) throw error;
        process.stderr.write(`lpa mcp: ${escapeUnsafe(`${error.code}: ${error.message}`)}\n`);
        process.exitCode = exitCodeFor(error);
      }
    });
}
