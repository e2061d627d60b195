import type { Command } from 'commander';

/** A top-level command of `lpa`: what `lpa --help` shows of it, and the module that fills it in. */
export interface Family {
  name: string;
  aliases?: string[];
  description: string;
  /** Adds the family's subcommands, options and actions to its command. */
  load: () => Promise<(family: Command) => void>;
}

/**
 * Every top-level command. Each is loaded only when it runs (or its help is asked), so that a
 * command reads the contracts and schemas of its own routes only, and `lpa --version` none.
 */
export const FAMILIES: Family[] = [
  {
    name: 'status',
    description: 'show the core status of the service',
    load: async () => (await import('./commands/status')).statusCommand,
  },
  {
    name: 'whoami',
    description: 'the token this CLI uses: its name, scopes, admin flag and expiry',
    load: async () => (await import('./commands/whoami')).whoamiCommand,
  },
  {
    name: 'membership',
    aliases: ['account'],
    description: 'the signed-in account of the browser and its membership (also `lpa account`, its former name)',
    load: async () => (await import('./commands/membership')).membershipCommand,
  },
  {
    name: 'profiles',
    description: 'browser profiles',
    load: async () => (await import('./commands/profiles')).profilesCommand,
  },
  {
    name: 'runs',
    description: "the profiles' running browsers (start one with `lpa profiles start <id>`)",
    load: async () => (await import('./commands/runs')).runsCommand,
  },
  {
    name: 'profile-accounts',
    aliases: ['accounts'],
    description: "a profile's platform accounts, their passwords and 2FA codes (also `lpa accounts`, its former name)",
    load: async () => (await import('./commands/profile-accounts')).profileAccountsCommand,
  },
  {
    name: 'globals',
    description: 'read and write global automation variables',
    load: async () => (await import('./commands/globals')).globalsCommand,
  },
  { name: 'flows', description: 'automation flows', load: async () => (await import('./commands/flows')).flowsCommand },
  {
    name: 'shares',
    description: 'share flows by code, redeem and import shared flows',
    load: async () => (await import('./commands/shares')).sharesCommand,
  },
  {
    name: 'files',
    description: 'files of the automation folder',
    load: async () => (await import('./commands/files')).filesCommand,
  },
  { name: 'sync', description: 'the synchronizer', load: async () => (await import('./commands/sync')).syncCommand },
  {
    name: 'settings',
    description: 'retention settings',
    load: async () => (await import('./commands/settings')).settingsCommands,
  },
  {
    name: 'audit',
    description: 'the tamper-evident audit log',
    load: async () => (await import('./commands/audit')).auditCommand,
  },
  {
    name: 'tokens',
    description: 'issue, list and revoke API tokens (admin session)',
    load: async () => (await import('./commands/tokens')).tokensCommand,
  },
  {
    name: 'team',
    description:
      "join this machine to a team or leave it, check the team's audit chain against what it witnessed, push this machine's store into the team",
    load: async () => (await import('./commands/team')).teamCommand,
  },
  {
    name: 'logs',
    description: 'technical log files of the service',
    load: async () => (await import('./commands/logs')).logsCommand,
  },
  {
    name: 'mcp',
    description:
      'run a Model Context Protocol server on stdin/stdout: one tool per API operation, called with LPA_URL and LPA_TOKEN; without LPA_TOKEN it refuses to start unless --admin is given',
    load: async () => (await import('./commands/mcp')).mcpCommand,
  },
];

/**
 * The family a command line runs (`lpa globals list`, `lpa help globals`), or undefined for the
 * program's own options and help. Only `-V` and `-h` come before a command, so its name is the first word.
 */
export function familyOf(args: readonly string[]): Family | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return FAMILIES.find((family) => family.name === name || family.aliases?.includes(name ?? ''));
}
