import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { files as fileRoutes } from '../../contracts/files';
import { action, readBytes, withJson, type JsonOption } from '../args';
import { show, table } from '../output';

export function filesCommand(files: Command): void {
  withJson(files.command('list').description('the automation folder and its files')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(fileRoutes.list);
      show(answer, options.json, (a) => `${a.directory}\n${table(a.items, ['name', 'size_bytes'])}`);
    }),
  );
  withJson(
    files
      .command('put')
      .description('upload a new file (an existing one is never replaced)')
      .argument('<file>', 'the local file')
      .option('--name <name>', 'its name in the folder (default: the local name)'),
  ).action(
    action(async (client, file: string, options: JsonOption & { name?: string }) => {
      const bytes = readBytes(file);
      const name = options.name ?? basename(file);
      await client.api(fileRoutes.write, { body: { name, base64: bytes.toString('base64') } });
      show({ name, size_bytes: bytes.length }, options.json, (a) => `wrote ${a.name} (${a.size_bytes} bytes)`);
    }),
  );
  withJson(
    files
      .command('get')
      .description('download a file')
      .argument('<name>')
      .option('--out <file>', 'where to write it ("-" for standard output; default: the same name here)'),
  ).action(
    action(async (client, name: string, options: JsonOption & { out?: string }) => {
      const answer = await client.api(fileRoutes.read, { query: { name } });
      const bytes = Buffer.from(answer.base64, 'base64');
      if (options.out === '-') {
        process.stdout.write(bytes);
        return;
      }
      const out = options.out ?? basename(name);
      writeFileSync(out, bytes);
      show({ file: out, size_bytes: bytes.length }, options.json, (a) => `wrote ${a.file} (${a.size_bytes} bytes)`);
    }),
  );
}
