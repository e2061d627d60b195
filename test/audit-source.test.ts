import { describe, expect, it } from 'vitest';
import { call, freshIp } from './support/api';
import { auditRows } from './support/profiles';

describe('the audit source of a request', () => {
  it.each([
    ['cli', { 'x-lpa-client': 'cli' }],
    ['mcp', { 'x-lpa-client': 'mcp' }],
    ['api', {}],
    ['api', { 'x-lpa-client': 'something-else' }],
    ['api', { 'x-lpa-client': 'CLI ' }],
    ['api', { 'x-lpa-client': 'mcp,cli' }],
  ] as const)('is %s for headers %j', async (source, headers) => {
    const name = `source-${crypto.randomUUID()}`;
    const res = await call('/api/v1/tokens', { method: 'POST', body: { name, scopes: [] }, headers });
    expect(res.status).toBe(201);
    const rows = (await auditRows('tokens.create')).filter((row) => row.entity_id === res.json.id);
    expect(rows).toEqual([expect.objectContaining({ source, result: 'ok', actor_type: 'admin' })]);
  });

  it('marks a denial of the command line as cli too, the actor staying anonymous', async () => {
    const res = await call('/api/v1/version', {
      token: 'lpa_not-a-token',
      headers: { 'x-lpa-client': 'cli' },
      clientIp: freshIp(),
    });
    expect(res.status).toBe(401);
    const rows = (await auditRows('auth.denied')).filter((row) => row.request_id === res.headers.get('x-request-id'));
    expect(rows).toEqual([expect.objectContaining({ source: 'cli', result: 'denied', actor_type: 'anonymous' })]);
  });
});
