import type { Command } from 'commander';
import { action, intBetween, withJson, type JsonOption } from '../args';
import type { ProfilePage } from '../../../storage/profiles/schema';
import { show, table } from '../output';

export function profilesCommand(program: Command): void {
  withJson(
    program
      .command('profiles')
      .description('list profiles')
      .option('--limit <n>', 'profiles per page, 1..100', intBetween(1, 100), 100)
      .option('--all', 'walk every page with the cursor')
      .option('--sort <key>', 'no, name, created_at or updated_at')
      .option('--order <order>', 'asc or desc'),
  ).action(
    action(async (client, options: JsonOption & { limit: number; all?: boolean; sort?: string; order?: string }) => {
      const query = { limit: options.limit, sort: options.sort, order: options.order };
      let page = await client.call<ProfilePage>('GET', '/api/v1/profiles', { query });
      const items = [...page.items];
      while (options.all && page.next_cursor) {
        page = await client.call<ProfilePage>('GET', '/api/v1/profiles', { query: { ...query, cursor: page.next_cursor } });
        items.push(...page.items);
      }
      const answer = { items, total: page.total, next_cursor: options.all ? null : page.next_cursor };
      show(answer, options.json, (a) => `${table(a.items, ['no', 'name', 'group', 'tags', 'pinned'])}\n${a.items.length} of ${a.total}`);
    }),
  );
}
