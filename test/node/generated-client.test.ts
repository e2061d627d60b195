import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { raw, useService } from './service';

const run = promisify(execFile);
const WORKFLOW = join(import.meta.dirname, '..', 'client-workflow');

/**
 * The document is good enough to build on: a client generated from what the service serves
 * (openapi-typescript, openapi-fetch) type-checks a script that uses every family without a cast,
 * and that script runs against the live service.
 */
describe('a client generated from the served OpenAPI document', () => {
  const service = useService('workerd');

  it('type-checks with tsc --strict and runs a workflow over every family', { timeout: 180_000 }, async () => {
    const served = await raw(service.current.port, '/api/v1/openapi.json', { headers: service.auth() });
    expect(served.status).toBe(200);
    const types = astToString(await openapiTS(served.json));
    mkdirSync(join(WORKFLOW, 'generated'), { recursive: true });
    writeFileSync(join(WORKFLOW, 'generated', 'schema.d.ts'), types);

    const tsc = await run(process.execPath, [
      'node_modules/typescript/bin/tsc',
      '-p',
      join(WORKFLOW, 'tsconfig.json'),
    ]).catch((e: { stdout: string }) => e);
    expect(tsc.stdout).toBe('');

    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(WORKFLOW, 'workflow.ts')], {
      env: { ...process.env, LPA_URL: `http://127.0.0.1:${service.current.port}`, LPA_TOKEN: service.current.token },
    });
    const seen = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(seen).toMatchObject({
      status: 'ok',
      api_version: 1,
      openapi: '3.1.0',
      token_secret_shown: true,
      token_listed: true,
      token_revoked: true,
      profiles_total: 2,
      profiles_by_cursor: ['workflow profile', 'second profile'],
      profile_pinned: true,
      profile_tags: ['a', 'b'],
      accounts: 1,
      password: 'hunter2',
      totp_digits: 6,
      account_notes: 'n',
      account_deleted: 204,
      conflict_current_revision: 1,
      global_value: 'v1',
      globals: ['WORKFLOW_GLOBAL'],
      global_deleted: true,
      unknown_flow_ids: ['no-such-flow'],
      flows: 2,
      flow_values: [['k', true]],
      shares: [true],
      preview_items: 2,
      imported: ['base', 'dependent'],
      share_revoked: true,
      flow_deleted: true,
      file_written: true,
      file_listed: true,
      file_content: 'hello',
      synchronizer_running: false,
      signed_in: false,
      audit_verified: true,
      export_count: 2,
      // Two entries and the signed head that ends a JSONL export.
      export_lines: 3,
      not_found: 'profile',
      profile_deleted: 204,
    });
    expect(seen.audit_actions).toEqual(
      expect.arrayContaining([
        'tokens.create',
        'profiles.create',
        'profile_accounts.password_read',
        'shares.import',
        'files.write',
      ]),
    );
    expect(seen.log_files).toBeGreaterThan(0);
    expect(seen.log_excerpt).toBe(true);
  });
});
