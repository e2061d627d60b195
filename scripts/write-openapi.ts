import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_PORT } from '../src/shared/config';
import { CONTRACTS } from '../src/contracts';
import { openapiDocument } from '../src/openapi/document';
import { teamOpenapiDocument } from '../src/teams/openapi';

/**
 * `tsx scripts/write-openapi.ts <file> [<team file>]`: the documents the services serve, without a
 * running service (for the linters): the local service's `GET /api/v1/openapi.json` into `<file>`, and
 * the team service's `GET /v1/openapi.json` into `<team file>` when one is named.
 */
const [file, teamFile, ...rest] = process.argv.slice(2);
if (!file || rest.length) {
  console.error('usage: write-openapi <file> [<team file>]');
  process.exit(2);
}
const write = (path: string, document: unknown) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
};
write(file, openapiDocument(CONTRACTS, `http://127.0.0.1:${DEFAULT_PORT}`));
if (teamFile) write(teamFile, teamOpenapiDocument());
