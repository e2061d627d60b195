import type { Command } from 'commander';
import type { NewFlow } from '../../../storage/flows/schema';
import { flows as flowRoutes } from '../../contracts/flows';
import { action, readJson, withJson, type JsonOption } from '../args';
import { keyValues, show, table } from '../output';

export function flowsCommand(flows: Command): void {
  withJson(flows.command('list').description('flow summaries, oldest first')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(flowRoutes.list);
      show(answer, options.json, (a) =>
        table(a.items, ['id', 'name', 'group', 'is_template', 'step_count', 'value_count', 'dependencies']),
      );
    }),
  );
  withJson(
    flows.command('get').description('one flow with its steps and values (protected values as null)').argument('<id>'),
  ).action(
    action(async (client, id: string, options: JsonOption) => {
      show(await client.api(flowRoutes.read, { params: { id } }), options.json, keyValues);
    }),
  );
  // A flow's steps are the runner's JSON: they come as the API's body, from a file.
  withJson(
    flows
      .command('create')
      .description('create a flow from a JSON file holding the request body (name, steps, values…)')
      .requiredOption('--file <path>', 'the flow as JSON ("-" for standard input)'),
  ).action(
    action(async (client, options: JsonOption & { file: string }) => {
      const body = readJson<NewFlow>(options.file);
      show(await client.api(flowRoutes.create, { body }), options.json, (a) => `created ${a.id} (${a.name})`);
    }),
  );
  withJson(flows.command('delete').description('delete a flow that no other flow depends on').argument('<id>')).action(
    action(async (client, id: string, options: JsonOption) => {
      await client.api(flowRoutes.delete, { params: { id } });
      show({ ok: true }, options.json, () => `deleted ${id}`);
    }),
  );
}
