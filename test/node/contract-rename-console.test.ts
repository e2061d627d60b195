import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web console's half of "renaming a route's path in its declaration changes every surface"
 * (./contract-rename.test.ts): the console is compiled, not run from the contracts, so a renamed
 * route must fail its type check rather than its pages at run time. The console's project
 * (src/console/tsconfig.json) is type-checked as it is, then with the globals family's paths renamed
 * in its declaration (src/contracts/globals.ts, read through an in-memory compiler host): the first
 * is clean, and the second fails exactly where the console writes a globals path.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const CONSOLE = join(ROOT, 'src/console');
const GLOBALS = join(ROOT, 'src/contracts/globals.ts');
const OLD = '/api/v1/automation/globals';
const NEW = '/api/v1/renamed-globals';

const config = ts.getParsedCommandLineOfConfigFile(
  join(CONSOLE, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
)!;

/**
 * The console's program, with `globals.ts` as `declaration` says, and the diagnostics of the console's
 * own files (the contracts are checked by `npm run typecheck`) as `file:line` and message.
 */
function typeCheck(declaration: string, oldProgram?: ts.Program) {
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, language, ...rest) =>
    resolve(fileName) === GLOBALS
      ? ts.createSourceFile(fileName, declaration, language)
      : getSourceFile.call(host, fileName, language, ...rest);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, oldProgram });
  const consoleFiles = program.getSourceFiles().filter((file) => file.fileName.startsWith(`${CONSOLE}/`));
  const found = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...consoleFiles.flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ]),
  ];
  const diagnostics = found.map(({ file, start = 0, messageText }) => ({
    where: file ? `${file.fileName.slice(ROOT.length + 1)}:${file.getLineAndCharacterOfPosition(start).line + 1}` : '',
    message: ts.flattenDiagnosticMessageText(messageText, '\n'),
  }));
  return { program, diagnostics };
}

/** Where the console's sources write a globals path (`'/api/v1/automation/globals…'`), as `file:line`. */
function globalsPathsInConsole(): string[] {
  return (readdirSync(CONSOLE, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => /\.tsx?$/.test(name) && config.fileNames.includes(join(CONSOLE, name)))
    .flatMap((name) =>
      readFileSync(join(CONSOLE, name), 'utf8')
        .split('\n')
        .flatMap((text, i) => (text.includes(`'${OLD}`) ? [`src/console/${name}:${i + 1}`] : [])),
    );
}

describe('a route renamed in its contract, in the web console', () => {
  it('fails the console type check at every call of the renamed routes, and in no other file', () => {
    const declaration = readFileSync(GLOBALS, 'utf8');
    const renamed = declaration.replaceAll(`'${OLD}`, `'${NEW}`);
    expect(renamed).not.toBe(declaration);

    const clean = typeCheck(declaration);
    expect(clean.diagnostics).toEqual([]);

    const sites = globalsPathsInConsole();
    // The console's Globals section reads the list and writes, reads and deletes a global.
    expect(sites.length).toBeGreaterThanOrEqual(4);
    const broken = typeCheck(renamed, clean.program).diagnostics;
    // Each call names the old path, which no contract declares any more: the error is the path's.
    const pathErrors = broken.filter(({ message }) => message.includes(`'"${OLD}`));
    expect([...new Set(pathErrors.map((d) => d.where))].sort()).toEqual([...new Set(sites)].sort());
    // What follows from a call that does not compile (its answer's type) stays in the files that make it.
    const fileOf = (where: string) => where.slice(0, where.lastIndexOf(':'));
    expect([...new Set(broken.map((d) => fileOf(d.where)))].sort()).toEqual([...new Set(sites.map(fileOf))].sort());
  }, 60_000);
});
