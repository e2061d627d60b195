import { readFileSync, writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { cookies } from '../../contracts/cookies';
import { COOKIE_FORMATS } from '../../shared/cookies/formats';
import { action, withJson, type JsonOption } from '../args';
import { show, table } from '../output';

/** `lpa profiles cookies export|import`: a profile's cookies out and in (docs/cookies.md). */
export function profileCookieCommands(profiles: Command): void {
  const jar = profiles.command('cookies').description("a profile's cookies, out and in (they are credentials)");
  withJson(
    jar
      .command('export')
      .description("write a profile's cookies out (needs secrets:read; audited)")
      .argument('<id>')
      .addOption(new Option('--format <format>', 'the file format').choices(COOKIE_FORMATS).default('json'))
      .option('--domain <domain>', 'only the cookies of this domain and its subdomains')
      .option('--out <file>', 'where to write them (default: print them)'),
  ).action(
    action(
      async (
        client,
        id: string,
        options: JsonOption & { format: (typeof COOKIE_FORMATS)[number]; domain?: string; out?: string },
      ) => {
        const answer = await client.api(cookies.export, {
          params: { id },
          query: { format: options.format, domain: options.domain },
        });
        if (!options.out) return show(answer, options.json, (a) => a.content);
        // Cookies are credentials: the file is the user's alone.
        writeFileSync(options.out, answer.content, { mode: 0o600 });
        show({ file: options.out, count: answer.count }, options.json, (a) => `wrote ${a.count} cookies to ${a.file}`);
      },
    ),
  );
  withJson(
    jar
      .command('import')
      .description('write cookies into a profile from JSON (extension, Playwright, Puppeteer) or cookies.txt')
      .argument('<id>')
      .argument('<file>', 'the cookie file ("-" for standard input)')
      .addOption(
        new Option('--format <format>', 'the file format').choices(['auto', ...COOKIE_FORMATS]).default('auto'),
      )
      .option('--replace', "remove the profile's other cookies first"),
  ).action(
    action(
      async (
        client,
        id: string,
        file: string,
        options: JsonOption & { format: 'auto' | (typeof COOKIE_FORMATS)[number]; replace?: boolean },
      ) => {
        const content = readFileSync(file === '-' ? 0 : file, 'utf8');
        const answer = await client.api(cookies.import, {
          params: { id },
          body: { content, format: options.format, mode: options.replace ? 'replace' : 'merge' },
        });
        show(answer, options.json, (a) =>
          [
            `imported ${a.imported}, replaced ${a.replaced}, ${a.errors.length} rows not imported`,
            ...(a.errors.length > 0 ? [table(a.errors, ['row', 'message'])] : []),
          ].join('\n'),
        );
      },
    ),
  );
}
