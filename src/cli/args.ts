import { InvalidArgumentError, type Command } from 'commander';
import { ApiCallError, ApiClient } from './client';

/** A whole number within bounds, or a clear refusal naming them. */
export function intBetween(min: number, max: number) {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}

export interface JsonOption {
  json?: boolean;
}

/**
 * Wraps a command's action: it gets a client from the environment, and a failure of the service
 * ends the process with a non-zero exit and the error code on stderr.
 */
export function action<A extends unknown[]>(fn: (client: ApiClient, ...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    try {
      await fn(ApiClient.fromEnv(process.env), ...args);
    } catch (error) {
      if (!(error instanceof ApiCallError)) throw error;
      process.stderr.write(`error: ${error.code}${error.status ? ` (HTTP ${error.status})` : ''}: ${error.message}\n`);
      process.exitCode = 1;
    }
  };
}

export function withJson(command: Command): Command {
  return command.option('--json', 'print JSON for scripts instead of text');
}
