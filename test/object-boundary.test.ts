import { describe, expect, it } from 'vitest';
import { DurableStoreObject } from '../src/object/durable-store-object';
import { call } from './support/api';
import { sql } from './support/store';

describe("what crosses to the store's Durable Object", () => {
  it('is a request (its arrival in a header only the front sets), a team creation, the daily run and a log flush: nothing of the store itself', () => {
    const methods = Object.getOwnPropertyNames(DurableStoreObject.prototype).filter((name) => name !== 'constructor');
    expect(methods.sort()).toEqual(['alarm', 'create', 'fetch', 'flushLogs', 'runDaily'].sort());
  });

  it('offers no route to what only the daily run may do (the audit purge): the log keeps every entry', async () => {
    const [{ n: before }] = (await sql<{ n: number }>('SELECT count(*) AS n FROM audit_log')) as [{ n: number }];
    for (const path of ['/api/v1/audit/purge', '/api/v1/audit?purge=1']) {
      const res = await call(path, { method: 'POST', body: {} });
      expect(res.status).toBe(404);
    }
    const [{ n: after }] = (await sql<{ n: number }>('SELECT count(*) AS n FROM audit_log')) as [{ n: number }];
    expect(after).toBeGreaterThanOrEqual(before);
  });
});
