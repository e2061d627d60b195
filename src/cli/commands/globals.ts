import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { GlobalWrite } from '../../../storage/globals/schema';
import { globals as globalRoutes } from '../../contracts/globals';
import { action, intBetween, withJson, type JsonOption } from '../args';
import { ApiCallError } from '../client';
import { keyValues, show, table } from '../output';

const revision = intBetween(0, Number.MAX_SAFE_INTEGER);

export function globalsCommand(globals: Command): void {
  withJson(globals.command('list').description('every global with its revision, without values')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(globalRoutes.list);
      show(answer, options.json, (a) => table(a.items, ['name', 'revision', 'bytes', 'updated_at']));
    }),
  );
  withJson(globals.command('get').description('print a value and its revision').argument('<name>')).action(
    action(async (client, name: string, options: JsonOption) => {
      show(
        await client.api(globalRoutes.read, { params: { name } }),
        options.json,
        (a) => `${a.value}\n(revision ${a.revision})`,
      );
    }),
  );
  withJson(
    globals
      .command('set')
      .description('write a value; --revision is the revision you read (0 to create)')
      .argument('<name>')
      .argument('[value]', 'the value; or use --file')
      .requiredOption('--revision <n>', 'the expected current revision', revision)
      .option('--file <path>', 'read the value from a file ("-" for standard input)'),
  ).action(
    action(
      async (
        client,
        name: string,
        value: string | undefined,
        options: JsonOption & { revision: number; file?: string },
      ) => {
        const text = options.file ? readFileSync(options.file === '-' ? 0 : options.file, 'utf8') : value;
        if (text === undefined) throw new ApiCallError(0, 'cli.value_missing', 'give a value or --file');
        const body: GlobalWrite = { value: text, expected_revision: options.revision };
        show(await client.api(globalRoutes.write, { params: { name }, body }), options.json, keyValues);
      },
    ),
  );
  withJson(
    globals
      .command('delete')
      .description('delete a variable at its current revision')
      .argument('<name>')
      .requiredOption('--revision <n>', 'the expected current revision', intBetween(1, Number.MAX_SAFE_INTEGER)),
  ).action(
    action(async (client, name: string, options: JsonOption & { revision: number }) => {
      await client.api(globalRoutes.delete, { params: { name }, query: { expected_revision: options.revision } });
      show({ ok: true }, options.json, () => `deleted ${name}`);
    }),
  );
}
