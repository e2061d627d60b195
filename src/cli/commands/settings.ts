import { InvalidArgumentError, type Command } from 'commander';
import { AuditRetentionWrite, LogRetentionPatch } from '../../../storage/settings/schema';
import { settings as settingRoutes } from '../../contracts/settings';
import { action, withJson, type JsonOption } from '../args';
import type { ApiClient } from '../client';
import { keyValues, show } from '../output';

type Settings = Record<string, number>;

/** `--set field=n`, repeatable; the fields are the schema's, the service checks the bounds. */
function setting(fields: readonly string[]) {
  return (value: string, all: Settings = {}): Settings => {
    const [, field, n] = /^([a-z_]+)=([0-9]{1,16})$/.exec(value) ?? [];
    if (!field || !fields.includes(field))
      throw new InvalidArgumentError(`expected field=n with field one of ${fields.join(', ')}`);
    return { ...all, [field]: Number(n) };
  };
}

/** One settings document: how to read it, how to change it and the fields a change takes. */
interface SettingsRoutes {
  fields: readonly string[];
  read: (client: ApiClient) => Promise<Record<string, unknown>>;
  write: (client: ApiClient, body: Settings) => Promise<Record<string, unknown>>;
}

/** `settings <name>` reads the settings; with `--set` it changes them first and prints what they became. */
function settingsCommand(
  parent: Command,
  name: string,
  description: string,
  { fields, read, write }: SettingsRoutes,
): void {
  withJson(
    parent
      .command(name)
      .description(`${description}; --set changes them`)
      .option('--set <field=n>', `change a field (repeat for more): ${fields.join(', ')}`, setting(fields)),
  ).action(
    action(async (client, options: JsonOption & { set?: Settings }) => {
      show(options.set ? await write(client, options.set) : await read(client), options.json, keyValues);
    }),
  );
}

export function settingsCommands(settings: Command): void {
  settingsCommand(settings, 'logs', 'log retention in days', {
    fields: Object.keys(LogRetentionPatch.shape),
    read: (client) => client.api(settingRoutes.logRetention),
    write: (client, body) => client.api(settingRoutes.setLogRetention, { body }),
  });
  settingsCommand(settings, 'audit', 'audit retention in days, with the entries kept', {
    fields: Object.keys(AuditRetentionWrite.shape),
    read: (client) => client.api(settingRoutes.auditRetention),
    write: (client, body) => client.api(settingRoutes.setAuditRetention, { body }),
  });
}
