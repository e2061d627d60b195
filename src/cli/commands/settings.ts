import { InvalidArgumentError, type Command } from 'commander';
import { AuditRetention, LogRetention } from '../../../storage/settings/schema';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

type Settings = Record<string, number>;

/** `--set field=n`, repeatable; the fields are the schema's, the service checks the bounds. */
function setting(fields: readonly string[]) {
  return (value: string, all: Settings = {}): Settings => {
    const [, field, n] = /^([a-z_]+)=([0-9]{1,16})$/.exec(value) ?? [];
    if (!field || !fields.includes(field)) throw new InvalidArgumentError(`expected field=n with field one of ${fields.join(', ')}`);
    return { ...all, [field]: Number(n) };
  };
}

/** `settings <name>` reads the settings; with `--set` it changes them first and prints what they became. */
function settingsCommand(parent: Command, name: string, description: string, path: string, fields: readonly string[]): void {
  withJson(
    parent
      .command(name)
      .description(`${description}; --set changes them`)
      .option('--set <field=n>', `change a field (repeat for more): ${fields.join(', ')}`, setting(fields)),
  ).action(
    action(async (client, options: JsonOption & { set?: Settings }) => {
      const answer = options.set
        ? await client.call<Settings>('PUT', path, { body: options.set })
        : await client.call<Settings>('GET', path);
      show(answer, options.json, keyValues);
    }),
  );
}

export function settingsCommands(program: Command): void {
  const settings = program.command('settings').description('retention settings');
  settingsCommand(settings, 'logs', 'log retention in days', '/api/v1/settings/logs', Object.keys(LogRetention.shape));
  settingsCommand(settings, 'audit', 'audit retention in days, with the entries kept', '/api/v1/settings/audit', Object.keys(AuditRetention.shape));
}
