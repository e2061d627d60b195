import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { announceStart, announceStop } from './announce';
import { keepFilesPrivate } from './private-files';
import packageJson from '../../../package.json' with { type: 'json' };
import { LaunchError, launchSettings, type LaunchSettings } from './settings';

/** What a runtime's entry starts its service with. */
export interface ProcessStart {
  settings: LaunchSettings;
  version: string;
  /** `<data root>/store`, private to the user: where the store's database lives. */
  storeDir: string;
  /** Adds a step to the stop. Steps run last added first, so what started last stops first. */
  onStop(step: () => unknown): void;
  /** Stops the process for a failure after the start: said on stderr, logged at error level, exit code 1. */
  fail(reason: string): void;
}

/**
 * The life of an LPA process, the same for every runtime's entry (`npm start`, `npm run start:bun`):
 * files private to the user, the settings, the version, the store's folder; then `serve`, which
 * resolves with the runtime's name once the service answers. The start and the stop are announced;
 * SIGINT and SIGTERM stop it cleanly; a failure to start exits with code 1.
 */
export function startProcess(serve: (start: ProcessStart) => Promise<string>): void {
  const startedAt = performance.now();
  keepFilesPrivate();
  let settings: LaunchSettings;
  try {
    settings = launchSettings(process.env);
  } catch (error) {
    console.error(error instanceof LaunchError ? `LPA: ${error.message}` : error);
    process.exit(1);
  }
  // Imported, not read from a path: the launcher also runs bundled (dist/launcher.mjs).
  const { version } = packageJson;
  const storeDir = join(settings.dataRoot, 'store');
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });

  const steps: (() => unknown)[] = [];
  let stopping = false;
  const stop = async (code: number, reason: string) => {
    if (stopping) return;
    stopping = true;
    announceStop(settings, reason, code === 0 ? 'info' : 'error');
    for (const step of steps.reverse()) {
      try {
        await step();
      } catch (error) {
        // One line, no stack: a stop goes on whatever one step says.
        console.error(
          'a stop step failed:',
          error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : String(error),
        );
      }
    }
    process.exit(code);
  };
  const fail = (reason: string) => {
    if (stopping) return;
    console.error(reason);
    void stop(1, reason);
  };
  process.once('SIGINT', () => void stop(0, 'SIGINT'));
  process.once('SIGTERM', () => void stop(0, 'SIGTERM'));

  serve({ settings, version, storeDir, onStop: (step) => steps.push(step), fail }).then(
    (runtime) => {
      if (!stopping) announceStart(settings, version, runtime, performance.now() - startedAt);
    },
    (error: unknown) => {
      if (stopping) return;
      // A LaunchError is a reason the user can act on; anything else shows where it came from.
      console.error('LPA did not start:', error instanceof LaunchError ? error.message : error);
      void stop(1, `did not start: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
}
