import { Option, type Command } from 'commander';
import { PROFILE_SORTS, type Profile, type ProfileInput, type ProfilePatch } from '../../../storage/profiles/schema';
import { profiles as profileRoutes } from '../../contracts/profiles';
import { action, intBetween, repeated, withJson, type JsonOption } from '../args';
import { keyValues, show, table } from '../output';
import { progress } from '../progress';
import { profileCookieCommands } from './cookies';
import { profileRunCommands } from './runs';

interface FieldOptions {
  name?: string;
  /** false from --no-group: sent as null, which removes it. */
  group?: string | false;
  tag?: string[];
  pinned?: boolean;
  notes?: string | false;
}

/** The profile fields as options, shared by `create` and `update`; what is not given is not sent. */
function withFields(command: Command): Command {
  return command
    .option('--group <group>', 'the group')
    .option('--tag <tag>', 'a tag (repeat for more; replaces the tags)', repeated)
    .option('--pinned', 'pin it')
    .option('--no-pinned', 'unpin it')
    .option('--notes <text>', 'free notes');
}

function fields(options: FieldOptions): ProfilePatch {
  const orNull = (value: string | false | undefined) => (value === false ? null : value);
  return {
    name: options.name,
    group: orNull(options.group),
    tags: options.tag,
    pinned: options.pinned,
    notes: orNull(options.notes),
  };
}

const profileTable = (items: Profile[]) => table(items, ['no', 'id', 'name', 'group', 'tags', 'pinned']);

export function profilesCommand(profiles: Command): void {
  withJson(
    profiles
      .command('list', { isDefault: true })
      .description('one page of profiles, or every page with --all')
      .option('--limit <n>', 'profiles per page, 1..100', intBetween(1, 100), 100)
      .option('--all', 'walk every page with the cursor')
      .addOption(new Option('--sort <key>', 'the order').choices(PROFILE_SORTS))
      .addOption(new Option('--order <order>', 'the direction').choices(['asc', 'desc'])),
  ).action(
    action(async (client, options: JsonOption & { limit: number; all?: boolean; sort?: string; order?: string }) => {
      const query = { limit: options.limit, sort: options.sort, order: options.order };
      let page = await client.api(profileRoutes.list, { query });
      const items = [...page.items];
      const bar = options.all ? progress('profiles', 'profiles') : undefined;
      bar?.update(items.length, page.total);
      while (options.all && page.next_cursor) {
        page = await client.api(profileRoutes.list, { query: { ...query, cursor: page.next_cursor } });
        items.push(...page.items);
        bar?.update(items.length, page.total);
      }
      bar?.stop();
      const answer = { items, total: page.total, next_cursor: options.all ? null : page.next_cursor };
      show(answer, options.json, (a) => `${profileTable(a.items)}\n${a.items.length} of ${a.total}`);
    }),
  );
  withJson(profiles.command('get').description('one profile').argument('<id>')).action(
    action(async (client, id: string, options: JsonOption) => {
      show(await client.api(profileRoutes.read, { params: { id } }), options.json, keyValues);
    }),
  );
  withJson(
    withFields(profiles.command('create').description('create a profile').requiredOption('--name <name>', 'its name')),
  ).action(
    action(async (client, options: JsonOption & FieldOptions & { name: string }) => {
      const body: ProfileInput = { ...fields(options), name: options.name };
      show(await client.api(profileRoutes.create, { body }), options.json, keyValues);
    }),
  );
  withJson(
    withFields(
      profiles
        .command('update')
        .description('change the given fields of a profile')
        .argument('<id>')
        .option('--name <name>', 'a new name'),
    )
      .option('--no-group', 'remove it from its group')
      .option('--no-notes', 'remove its notes'),
  ).action(
    action(async (client, id: string, options: JsonOption & FieldOptions) => {
      show(await client.api(profileRoutes.update, { params: { id }, body: fields(options) }), options.json, keyValues);
    }),
  );
  withJson(
    profiles.command('delete').description('delete a profile and its platform accounts').argument('<id>'),
  ).action(
    action(async (client, id: string, options: JsonOption) => {
      await client.api(profileRoutes.delete, { params: { id } });
      show({ ok: true }, options.json, () => `deleted ${id}`);
    }),
  );
  profileRunCommands(profiles);
  profileCookieCommands(profiles);
}
