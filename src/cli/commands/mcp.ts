import type { Command } from 'commander';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('run a Model Context Protocol server on stdin/stdout: one tool per API operation, called with LPA_URL and LPA_TOKEN')
    .action(async () => {
      // Loaded only here: the server reads every route contract, which no other command needs.
      const { runMcpServer } = await import('../mcp/server');
      await runMcpServer(process.env);
    });
}
