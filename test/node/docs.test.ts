import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/errors/catalog';
import { AUDIT_ACTIONS } from '../../storage/audit/actions';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every error code of the catalogue', () => {
    expect(Object.keys(ERROR_CATALOG).filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
  });

  it('documents every audit action with its category', () => {
    const missing = Object.entries(AUDIT_ACTIONS)
      .filter(([action, { category }]) => !new RegExp(`\`${action.replace('.', '\\.')}\`[^\\n]*\\b${category}\\b`).test(readme))
      .map(([action]) => action);
    expect(missing).toEqual([]);
  });
});
