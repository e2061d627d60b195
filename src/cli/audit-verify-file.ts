import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { verifyJsonlExport } from '../../storage/audit/verify-export';

export { verifyJsonlExport };

/** `npm run audit:verify-file -- <export.jsonl>`: prints the result; exit code 0 only when the file verifies. */
function main(args: string[]): number {
  if (args.length !== 1) {
    console.error('usage: audit-verify-file <export.jsonl>');
    return 2;
  }
  const result = verifyJsonlExport(readFileSync(args[0]!, 'utf8'));
  console.log(JSON.stringify(result, null, 2));
  return result.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2));
