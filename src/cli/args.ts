import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { ApiCallError, ApiClient } from './client';
import { describeError } from './errors';
import { exitCodeFor } from './exit-codes';
import { printable } from './output';

/** A whole number within bounds, or a clear refusal naming them. */
export function intBetween(min: number, max: number) {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/** Collects a repeatable option into a list. */
export const repeated = (value: string, all: string[] = []) => [...all, value];

export interface JsonOption {
  json?: boolean;
}

/**
 * Wraps a command's action: a failure ends the process with the exit code of its HTTP outcome
 * (./exit-codes.ts) and the error on stderr: the envelope as JSON with --json, else its code, message
 * and details as text (./errors.ts). Stdout stays empty. For commands that work on this machine only.
 */
export function localAction<A extends unknown[]>(fn: (...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    try {
      await fn(...args);
    } catch (error) {
      if (!(error instanceof ApiCallError)) throw error;
      // Commander passes the command last; its options (and its parents') say whether --json was asked.
      const json = (args.at(-1) as Command | undefined)?.optsWithGlobals?.().json === true;
      process.stderr.write(json ? `${printable(JSON.stringify(error.envelope))}\n` : describeError(error));
      process.exitCode = exitCodeFor(error);
    }
  };
}

/** The same for a command that calls the service: it gets a client from the environment. */
export function action<A extends unknown[]>(fn: (client: ApiClient, ...args: A) => Promise<void>) {
  return localAction((...args: A) => fn(ApiClient.fromEnv(process.env), ...args));
}

export function withJson(command: Command): Command {
  return command.option('--json', 'print JSON for scripts instead of text');
}

/** A file's bytes, "-" for standard input; an unreadable file is a local failure with its reason. */
export function readBytes(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    throw new ApiCallError(0, 'cli.file_unreadable', (error as Error).message);
  }
}

export const readText = (file: string): string => readBytes(file).toString('utf8');

/** A JSON request body from a file ("-" for standard input), for the bodies too rich for options. */
export function readJson<T>(file: string): T {
  const text = readText(file);
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ApiCallError(0, 'cli.json_invalid', `${file}: ${(error as Error).message}`);
  }
}
