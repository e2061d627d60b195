import type { Command } from 'commander';
import { tokens } from '../../contracts/tokens';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

/** `lpa whoami`: the token the CLI uses (LPA_TOKEN, or the admin token), as the service knows it. */
export function whoamiCommand(whoami: Command): void {
  withJson(whoami).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(tokens.self), options.json, keyValues);
    }),
  );
}
