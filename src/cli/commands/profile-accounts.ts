import type { Command } from 'commander';
import type { PlatformAccountInput, PlatformAccountPatch } from '../../../storage/profile-accounts/schema';
import { profileAccounts } from '../../contracts/profile-accounts';
import { action, intBetween, readText, withJson, type JsonOption } from '../args';
import { keyValues, show, table } from '../output';

interface FieldOptions {
  url?: string;
  username?: string | false;
  passwordFile?: string;
  totpFile?: string;
  notes?: string | false;
  sortOrder?: number;
}

/**
 * The account fields as options. Secrets come from files (or "-", standard input), never from the
 * command line, where other users of the machine could read them in the process list.
 */
function withFields(command: Command): Command {
  return command
    .option('--username <name>', 'the user name on the platform')
    .option('--password-file <path>', 'read the password from a file ("-" for standard input)')
    .option('--totp-file <path>', 'read the 2FA secret (base32 or otpauth:// URI) from a file ("-" for standard input)')
    .option('--notes <text>', 'free notes')
    .option('--sort-order <n>', 'its place in the list', intBetween(0, Number.MAX_SAFE_INTEGER));
}

const secret = (file: string | undefined) => (file === undefined ? undefined : readText(file).replace(/\r?\n$/, ''));
const orNull = (value: string | false | undefined) => (value === false ? null : value);

function fields(options: FieldOptions): PlatformAccountPatch {
  return {
    platform_url: options.url,
    username: orNull(options.username),
    password: secret(options.passwordFile),
    totp_secret: secret(options.totpFile),
    notes: orNull(options.notes),
    sort_order: options.sortOrder,
  };
}

/** A profile's account as the routes address it. */
const ofProfile = (id: string, accountId: string) => ({ params: { id, accountId } });

export function profileAccountsCommand(accounts: Command): void {
  withJson(
    accounts
      .command('list')
      .description('the accounts of a profile (secrets only as set or not)')
      .argument('<profile>'),
  ).action(
    action(async (client, profile: string, options: JsonOption) => {
      const answer = await client.api(profileAccounts.list, { params: { id: profile } });
      show(answer, options.json, (a) =>
        table(a.items, ['id', 'platform_url', 'username', 'password_set', 'totp_set', 'sort_order']),
      );
    }),
  );
  withJson(
    withFields(
      accounts
        .command('add')
        .description('add an account')
        .argument('<profile>')
        .requiredOption('--url <url>', 'the platform URL'),
    ),
  ).action(
    action(async (client, profile: string, options: JsonOption & FieldOptions & { url: string }) => {
      const body: PlatformAccountInput = { ...fields(options), platform_url: options.url };
      show(await client.api(profileAccounts.create, { params: { id: profile }, body }), options.json, keyValues);
    }),
  );
  withJson(
    withFields(
      accounts
        .command('update')
        .description('change the given fields')
        .argument('<profile>')
        .argument('<account>')
        .option('--url <url>', 'a new platform URL'),
    )
      .option('--no-username', 'remove the user name')
      .option('--no-notes', 'remove the notes')
      .option('--remove-password', 'remove the password')
      .option('--remove-totp', 'remove the 2FA secret'),
  ).action(
    action(
      async (
        client,
        profile: string,
        account: string,
        options: JsonOption & FieldOptions & { removePassword?: boolean; removeTotp?: boolean },
      ) => {
        const body = fields(options);
        if (options.removePassword) body.password = null;
        if (options.removeTotp) body.totp_secret = null;
        show(
          await client.api(profileAccounts.update, { ...ofProfile(profile, account), body }),
          options.json,
          keyValues,
        );
      },
    ),
  );
  withJson(
    accounts.command('delete').description('remove an account').argument('<profile>').argument('<account>'),
  ).action(
    action(async (client, profile: string, account: string, options: JsonOption) => {
      await client.api(profileAccounts.delete, ofProfile(profile, account));
      show({ ok: true }, options.json, () => `deleted ${account}`);
    }),
  );
  withJson(
    accounts
      .command('password')
      .description('print the password (audited; needs secrets:read)')
      .argument('<profile>')
      .argument('<account>'),
  ).action(
    action(async (client, profile: string, account: string, options: JsonOption) => {
      show(await client.api(profileAccounts.password, ofProfile(profile, account)), options.json, (a) => a.password);
    }),
  );
  withJson(
    accounts
      .command('totp')
      .description('print the current 2FA code (audited; needs secrets:totp)')
      .argument('<profile>')
      .argument('<account>'),
  ).action(
    action(async (client, profile: string, account: string, options: JsonOption) => {
      show(
        await client.api(profileAccounts.totp, ofProfile(profile, account)),
        options.json,
        (a) => `${a.code}\n(valid ${a.remaining_s} s)`,
      );
    }),
  );
}
