import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { RunningService } from './service';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const BIN = join(process.cwd(), 'bin/lpa.mjs');

/** `node bin/lpa.mjs …` as a user runs it (stdout and stderr piped), against the service unless the environment says otherwise. */
export function lpaRunner(service: () => RunningService) {
  return (args: string[], env: Record<string, string> = {}, cwd = process.cwd(), input?: string): Promise<Run> =>
    new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, ...args],
        {
          env: { ...process.env, LPA_URL: `http://127.0.0.1:${service().port}`, LPA_TOKEN: service().token, ...env },
          cwd,
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end(input);
    });
}

/**
 * The same on a terminal: `script` gives the command a pseudo-terminal, as when a person runs it,
 * and records what it wrote to the terminal (stdout and stderr together).
 */
export function lpaOnTerminal(service: () => RunningService) {
  return (args: string[], cwd = process.cwd()): Promise<Run> =>
    new Promise((resolve) => {
      const command = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
      execFile(
        'script',
        ['-qec', command, '/dev/null'],
        {
          env: {
            ...process.env,
            LPA_URL: `http://127.0.0.1:${service().port}`,
            LPA_TOKEN: service().token,
            COLUMNS: '120',
          },
          cwd,
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
}
