import { Command } from 'commander';
import { EXIT } from './exit-codes';
import { FAMILIES, familyOf, type Family } from './families';
import { VERSION } from './version';

/**
 * The `lpa` program with every top-level command named and described (./families.ts). Only the
 * families in `load` get their subcommands and actions: a run loads the one it needs, `npm run docs`
 * all of them to walk the whole program.
 */
export async function buildProgram(load: (family: Family) => boolean = () => true): Promise<Command> {
  const program = new Command('lpa')
    .description(
      'Command line of LPA. The service is LPA_URL (default http://127.0.0.1:8719); the token is LPA_TOKEN (default: the admin-token file of LPA_DATA_ROOT, ./data).',
    )
    .version(VERSION, '-V, --version', 'print the version of lpa')
    .showHelpAfterError()
    .exitOverride((error) => process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage));
  for (const family of FAMILIES) {
    const command = program
      .command(family.name)
      .aliases(family.aliases ?? [])
      .description(family.description);
    if (load(family)) (await family.load())(command);
  }
  return program;
}

/** Runs a command line, loading only the family it names. */
export async function runProgram(argv: string[]): Promise<void> {
  const wanted = familyOf(argv.slice(2));
  await (await buildProgram((family) => family === wanted)).parseAsync(argv);
}
