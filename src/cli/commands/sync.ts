import { type Command, InvalidArgumentError } from 'commander';
import { synchronizer } from '../../contracts/synchronizer';
import type { SynchronizerStatus } from '../../shared/schemas/synchronizer';
import { action, repeated, withJson, type JsonOption } from '../args';
import { keyValues, show, table } from '../output';

/** What `--without` may turn off: the options of a start that are switches (docs/automation.md#synchronizer). */
const SWITCHES = ['clicks', 'keys', 'text_input', 'scroll', 'navigation', 'tabs', 'copy_window_size'] as const;

/** `--delay-ms 200` or `--delay-ms 100-400`. */
function delay(value: string): { min: number; max: number } {
  const match = /^([0-9]{1,5})(?:-([0-9]{1,5}))?$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be a number of ms, or min-max');
  return { min: Number(match[1]), max: Number(match[2] ?? match[1]) };
}

function without(value: string, all: string[] = []): string[] {
  if (!(SWITCHES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${SWITCHES.join(', ')}`);
  return repeated(value, all);
}

/** The status for people: the session, then a line per follower with its counters. */
const human = (status: SynchronizerStatus) =>
  [
    keyValues({
      running: status.running,
      source_id: status.source_id,
      follower_ids: status.follower_ids.join(','),
      mode: status.mode,
      tabs: status.tabs.length,
      error: status.error && `${status.error.code} (${status.error.profile_id ?? '-'}): ${status.error.message}`,
    }),
    ...(status.events.length > 0
      ? [table(status.events, ['profile_id', 'alive', 'captured', 'replayed', 'missed', 'dropped', 'last_event_at'])]
      : []),
  ].join('\n');

/** `lpa sync`: the synchronizer (docs/automation.md#synchronizer). */
export function syncCommand(sync: Command): void {
  withJson(
    sync.command('status').description("whether it runs, its source and followers, each follower's counters"),
  ).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(synchronizer.status), options.json, human);
    }),
  );
  withJson(
    sync
      .command('start')
      .description("mirror the source profile's input on the followers (profiles not running are started)")
      .argument('<source>', 'the profile whose input is mirrored')
      .argument('<followers...>', 'the profiles that follow (1..50)')
      .option('--coordinates', 'replay at the same positions instead of on the matching elements')
      .option('--delay-ms <ms>', 'each follower waits this long (or a time drawn in min-max) before each event', delay)
      .option('--without <what>', `do not mirror this (repeat for more): ${SWITCHES.join(', ')}`, without)
      .option('--headless', 'start the profiles that are not running without a window'),
  ).action(
    action(
      async (
        client,
        source: string,
        followers: string[],
        options: JsonOption & {
          coordinates?: boolean;
          delayMs?: { min: number; max: number };
          without?: string[];
          headless?: boolean;
        },
      ) => {
        const body = {
          source_id: source,
          follower_ids: followers,
          mode: options.coordinates ? ('coordinates' as const) : ('element' as const),
          options: {
            ...Object.fromEntries((options.without ?? []).map((name) => [name, false])),
            ...(options.delayMs ? { delay_ms: options.delayMs } : {}),
          },
          headless: options.headless,
        };
        show(await client.api(synchronizer.start, { body }), options.json, human);
      },
    ),
  );
  withJson(
    sync
      .command('stop')
      .description('stop the synchronizer')
      .option('--browsers', "also stop the source's and the followers' browsers"),
  ).action(
    action(async (client, options: JsonOption & { browsers?: boolean }) => {
      show(await client.api(synchronizer.stop, { body: { stop_browsers: options.browsers } }), options.json, human);
    }),
  );
  withJson(sync.command('remove').description('take a follower out (its browser goes on)').argument('<id>')).action(
    action(async (client, id: string, options: JsonOption) => {
      show(await client.api(synchronizer.removeFollower, { params: { id } }), options.json, human);
    }),
  );
}
