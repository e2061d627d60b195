import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The call path from a handler to SQL can be followed by "go to definition": the TypeScript
 * language service, asked at `write` in `ctx.store.globals.write(…)` of a handler, answers with the
 * family method that runs the SQL, not with the store client or a mapped type.
 */
const ROOT = resolve(import.meta.dirname, '../..');

function definitionAt(file: string, text: string): { file: string; line: string }[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => config.options,
    getScriptFileNames: () => config.fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) =>
      ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name)!) : undefined,
    getCurrentDirectory: () => ROOT,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
  };
  const path = resolve(ROOT, file);
  const position = readFileSync(path, 'utf8').indexOf(text) + text.length - 1;
  const service = ts.createLanguageService(host);
  return (service.getDefinitionAtPosition(path, position) ?? []).map((definition) => {
    const source = readFileSync(definition.fileName, 'utf8');
    const lineStart = source.lastIndexOf('\n', definition.textSpan.start) + 1;
    return {
      file: definition.fileName.slice(ROOT.length + 1),
      line: source.slice(lineStart, source.indexOf('\n', lineStart)).trim(),
    };
  });
}

describe('go to definition', () => {
  it('leads from ctx.store.globals.write in a handler to Globals.write', () => {
    const found = definitionAt('handlers/globals.ts', 'ctx.store.globals.write');
    expect(found).toHaveLength(1);
    expect(found[0]!.file).toBe('storage/globals/globals.ts');
    expect(found[0]!.line).toMatch(/^write\(/);
  });
});
