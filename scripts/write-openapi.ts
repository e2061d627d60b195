import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_PORT } from '../src/shared/config';
import { CONTRACTS } from '../src/contracts';
import { openapiDocument } from '../src/openapi/document';

/** `tsx scripts/write-openapi.ts <file>`: the document the service serves, without a running service (for the linters). */
const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: write-openapi <file>');
  process.exit(2);
}
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(openapiDocument(CONTRACTS, `http://127.0.0.1:${DEFAULT_PORT}`), null, 2)}\n`);
