import { DEFAULT_PORT } from './config';

/** Who reads a variable: the launcher of `npm start`, Bun and Deno; `npm run start:team`; the `lpa` CLI and its MCP server; the test suite. */
export type EnvironmentReader = 'launcher' | 'team' | 'cli' | 'tests';

interface Variable {
  /** What the variable is worth when unset, said for people. */
  default: string;
  meaning: string;
  readBy: readonly EnvironmentReader[];
}

/**
 * Every environment variable LPA reads, declared once: the readers take their environment typed by
 * these names, and `npm run docs` writes docs/reference/environment.md from this table.
 */
export const ENVIRONMENT = {
  LPA_PORT: {
    default: String(DEFAULT_PORT),
    meaning: 'The port the service listens on, on 127.0.0.1 only.',
    readBy: ['launcher', 'cli'],
  },
  LPA_DATA_ROOT: {
    default: './data',
    meaning: 'The folder of the store, the keys, the logs, the automation files and the admin-token file.',
    readBy: ['launcher', 'cli'],
  },
  LPA_ADMIN_TOKEN: {
    default: 'generated on first start into `<data root>/admin-token` (mode 0600); only its path is printed',
    meaning: 'The bootstrap admin token: 16..512 characters of `A-Za-z0-9-._~+/`.',
    readBy: ['launcher'],
  },
  LPA_BROWSER: {
    default: 'the first of `chromium`, `google-chrome-stable`, `google-chrome`, `chromium-browser`, `chrome` on PATH',
    meaning: "The Chromium-based browser a profile's run starts: a path, or a name on PATH (docs/runs.md).",
    readBy: ['launcher'],
  },
  LPA_BROWSER_NICE: {
    default: '10',
    meaning:
      "How much a starting browser yields the CPU to the API and the machine's other work while both want it: the nice of the browser's session until it answers DevTools (at most 5 s), 0..19; 0 to weigh it as any session (Linux; docs/runs.md#cpu).",
    readBy: ['launcher'],
  },
  LPA_MACHINE_LABEL: {
    default: "the machine's host name",
    meaning:
      'How the team names this machine where a team profile runs on it (docs/teams.md#runs-across-machines); printable ASCII, at most 100 characters.',
    readBy: ['launcher'],
  },
  PATH: {
    default: "the process's own",
    meaning: 'Where LPA looks for a browser when `LPA_BROWSER` is unset or is a name (docs/runs.md#the-browser).',
    readBy: ['launcher'],
  },
  LPA_ALLOWED_ORIGINS: {
    default: 'none',
    meaning: 'Comma-separated browser origins (`scheme://host[:port]`) that may call the API.',
    readBy: ['launcher', 'team'],
  },
  LPA_TEAM_PORT: {
    default: '8720',
    meaning: 'The port the team service listens on, on 127.0.0.1 (docs/teams.md#run-it-locally).',
    readBy: ['team'],
  },
  LPA_TEAM_DATA_ROOT: {
    default: './data-team',
    meaning:
      "The team service's local state: the simulated Durable Objects, bucket and rate limiter, and its secrets' files.",
    readBy: ['team'],
  },
  LPA_RUN_LEASE_MS: {
    default: '60000',
    meaning:
      "How long a team profile's run lease lasts, in ms (3000..3600000); its machine renews it every third (docs/teams.md#runs-across-machines).",
    readBy: ['team'],
  },
  LPA_BUNDLE_MAX_BYTES: {
    default: '268435456',
    meaning:
      "The largest a team profile's packed and encrypted browser data may be, in bytes (1048576..1073741824); a larger one is refused and the previous version kept (docs/teams.md#what-travels).",
    readBy: ['team'],
  },
  LPA_TEAM_HOSTNAMES: {
    default: '`127.0.0.1:$LPA_TEAM_PORT,localhost:$LPA_TEAM_PORT`',
    meaning: 'Comma-separated `host[:port]` names the team service answers to.',
    readBy: ['team'],
  },
  LPA_OPERATOR_TOKEN: {
    default: 'generated on first start into `<team data root>/operator-token` (mode 0600)',
    meaning: "The operator's bearer token for `POST /v1/teams`; a Wrangler secret when deployed.",
    readBy: ['team'],
  },
  LPA_KEY_WRAP_KEY: {
    default: 'generated on first start into `<team data root>/key-wrap.key` (mode 0600)',
    meaning: "32 random bytes in base64 that wrap every team's keys; a Wrangler secret when deployed.",
    readBy: ['team'],
  },
  LPA_ACCESS_JWKS_URL: {
    default: 'unset: a local stand-in for Cloudflare Access (scripts/local-access.mjs)',
    meaning: "Cloudflare Access's signing keys, `https://<team>.cloudflareaccess.com/cdn-cgi/access/certs`.",
    readBy: ['team'],
  },
  LPA_ACCESS_AUD: {
    default: 'unset: the local stand-in',
    meaning: "The Access application's AUD tag.",
    readBy: ['team'],
  },
  LPA_ACCESS_ISSUER: {
    default: 'unset: the local stand-in',
    meaning: 'The Access issuer, `https://<team>.cloudflareaccess.com`.',
    readBy: ['team'],
  },
  LPA_TEAM_LOG_LEVEL: {
    default: 'log',
    meaning:
      "The log level of `npm run start:team`, in Wrangler's `--log-level` values (none, error, warn, info, log, debug; `warn` hides the per-request lines).",
    readBy: ['team'],
  },
  LPA_TEAM_INSPECTOR_PORT: {
    default: 'unset: no inspector',
    meaning:
      "A port of 127.0.0.1 where `npm run start:team` opens DevTools' inspector on the Worker and its objects (to profile them); the next ports for its other workerd processes.",
    readBy: ['team'],
  },
  LPA_TEAM_PROCESSES: {
    default: 'the number of cores, at most 4; kept in the data root from its first start',
    meaning:
      "How many workerd processes `npm run start:team` spreads the teams' objects over, behind one front on LPA_TEAM_PORT (1 to 16; docs/teams.md#run-it-locally).",
    readBy: ['team'],
  },
  LPA_TEAM_URL: {
    default: 'unset: solo, unless `lpa team join` wrote `<data root>/team.json`',
    meaning:
      "The team this machine works in, `https://<host>/teams/<team_id>`: its profiles, accounts, automation data and audit trail are the team's (docs/teams.md#a-machine-in-a-team).",
    readBy: ['launcher', 'cli'],
  },
  LPA_TEAM_TOKEN_FILE: {
    default: 'unset',
    meaning: "The file that holds this machine's team token (with LPA_TEAM_URL).",
    readBy: ['launcher', 'cli'],
  },
  LPA_TEAM_ACCESS_CLIENT_ID: {
    default: 'unset',
    meaning: 'The client id of a Cloudflare Access service token, when Access stands in front of the team.',
    readBy: ['launcher', 'cli'],
  },
  LPA_TEAM_ACCESS_CLIENT_SECRET: {
    default: 'unset',
    meaning: 'The client secret of that Access service token.',
    readBy: ['launcher', 'cli'],
  },
  LPA_ACCOUNT_URL: {
    default: 'unset: local mode',
    meaning: 'The membership server that confirms the signed-in account.',
    readBy: ['launcher'],
  },
  LPA_URL: {
    default: 'http://127.0.0.1:$LPA_PORT',
    meaning: 'The service the CLI and the MCP server call.',
    readBy: ['cli', 'tests'],
  },
  LPA_TOKEN: {
    default:
      'the admin-token file of `LPA_DATA_ROOT` for the CLI; `lpa mcp` refuses to start without it unless given `--admin`',
    meaning: 'The bearer token the CLI and the MCP server send.',
    readBy: ['cli', 'tests'],
  },
  FUZZ_RUNS: {
    default: '12 per route, 150 for paths',
    meaning: 'Runs per fuzz property (test/fuzz-*.test.ts).',
    readBy: ['tests'],
  },
  CRASH_ROUNDS: {
    default: '3',
    meaning: 'Kill-and-restart rounds of the crash test (test/node/crash.test.ts).',
    readBy: ['tests'],
  },
  LPA_TEST_RUN_FOLDER: {
    default: 'a new temporary folder per run',
    meaning: "The test run's scratch folder; vitest.config.ts sets it for the test processes it starts.",
    readBy: ['tests'],
  },
} as const satisfies Record<string, Variable>;

export type EnvironmentName = keyof typeof ENVIRONMENT;

/** The process environment as LPA reads it: only declared names, so a misspelt one does not compile. */
export type Environment = Readonly<Partial<Record<EnvironmentName, string>>>;

/** A whole process environment: `process.env`, or one a test builds. */
export type ProcessVars = Readonly<Record<string, string | undefined>>;

/** The declared variables of a process environment. */
export function environmentOf(vars: ProcessVars): Environment {
  return Object.fromEntries(Object.keys(ENVIRONMENT).map((name) => [name, vars[name]]));
}
