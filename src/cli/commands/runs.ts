import type { Command } from 'commander';
import { runs } from '../../contracts/runs';
import type { Run, RunBatchResults } from '../../shared/schemas/run';
import { action, intBetween, repeated, withJson, type JsonOption } from '../args';
import { keyValues, show, table } from '../output';

const runTable = (items: Run[]) => table(items, ['profile_id', 'id', 'state', 'headless', 'pid', 'ws_endpoint']);
const resultTable = ({ results }: RunBatchResults) =>
  table(
    results.map((result) => ({
      id: result.id,
      ok: result.ok,
      state: result.run?.state ?? '',
      error: result.error?.code ?? '',
    })),
    ['id', 'ok', 'state', 'error'],
  );

/** `lpa profiles start|stop|run`: a profile's browser (docs/runs.md). */
export function profileRunCommands(profiles: Command): void {
  withJson(
    profiles
      .command('start')
      .description("start a profile's browser; prints its DevTools endpoint")
      .argument('<id>')
      .option('--headless', 'without a window')
      .option('--url <url>', 'the first page')
      .option('--arg <switch>', 'a browser switch, --name or --name=value (repeat for more)', repeated)
      .option('--timeout-ms <ms>', 'how long the browser has to answer DevTools', intBetween(1_000, 120_000))
      .option('--debug-port', 'also open a raw DevTools port on 127.0.0.1 (for Selenium)')
      .option('--check-proxy', "first fetch --url through the profile's proxy; start only if it answers"),
  ).action(
    action(
      async (
        client,
        id: string,
        options: JsonOption & {
          headless?: boolean;
          url?: string;
          arg?: string[];
          timeoutMs?: number;
          debugPort?: boolean;
          checkProxy?: boolean;
        },
      ) => {
        const body = {
          headless: options.headless,
          url: options.url,
          args: options.arg,
          timeout_ms: options.timeoutMs,
          debug_port: options.debugPort,
          check_proxy: options.checkProxy,
        };
        const run = await client.api(runs.start, { params: { id }, body });
        show(run, options.json, (started) => started.ws_endpoint ?? keyValues(started));
      },
    ),
  );
  withJson(
    profiles
      .command('stop')
      .description("stop a profile's browser (asked to close; killed after 10 s)")
      .argument('<id>')
      .option('--force', 'kill it at once'),
  ).action(
    action(async (client, id: string, options: JsonOption & { force?: boolean }) => {
      show(await client.api(runs.stop, { params: { id }, body: { force: options.force } }), options.json, keyValues);
    }),
  );
  withJson(profiles.command('run').description("a profile's latest run").argument('<id>')).action(
    action(async (client, id: string, options: JsonOption) => {
      show(await client.api(runs.read, { params: { id } }), options.json, keyValues);
    }),
  );
  const proxy = profiles.command('proxy').description("a profile's proxy (docs/proxies.md)");
  withJson(
    proxy
      .command('check')
      .description("fetch a URL through the profile's proxy, as its browser would")
      .argument('<id>')
      .requiredOption('--url <url>', 'an http or https URL'),
  ).action(
    action(async (client, id: string, options: JsonOption & { url: string }) => {
      show(await client.api(runs.checkProxy, { params: { id }, body: { url: options.url } }), options.json, keyValues);
    }),
  );
}

/** `lpa runs`: the live runs, and stopping all of them. */
export function runsCommand(command: Command): void {
  withJson(command.command('list', { isDefault: true }).description('the runs whose browser is alive')).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(runs.list), options.json, (answer) => runTable(answer.items));
    }),
  );
  withJson(
    command.command('stop-all').description('stop every live run').option('--force', 'kill them at once'),
  ).action(
    action(async (client, options: JsonOption & { force?: boolean }) => {
      show(await client.api(runs.stopAll, { body: { force: options.force } }), options.json, resultTable);
    }),
  );
}
