import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hostClient } from '../src/host/port';
import { DurableStoreObject } from '../src/object/durable-store-object';
import type { LogRecord } from '../src/shared/logs/line';
import { call, tokenWith } from './support/api';
import { serviceWith } from './support/service';
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

  it('tells the front who asked: the front writes every api line, in answer order, and the client never sees the word', async () => {
    const host = hostClient(env.HOST);
    const lines: LogRecord[] = [];
    const service = serviceWith({
      host: { ...host, logs: { ...host.logs, append: async (_stream, records) => void lines.push(...records) } },
    });
    const reader = await tokenWith(['profiles:read']);
    const answers = [
      await call('/api/v1/version', { fetcher: service, token: reader.token }),
      await call('/status', { fetcher: service, token: null }),
      await call('/api/v1/version', { fetcher: service, token: null }),
    ];
    await service.idle();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401]);
    for (const answer of answers)
      expect([...answer.headers.keys()].filter((name) => name.startsWith('x-lpa-'))).toEqual([]);
    expect(lines.map((line) => [line.message, line.fields?.status, line.fields?.actor, line.fields?.actor_id])).toEqual(
      [
        ['GET /api/v1/version', 200, 'token', reader.id],
        ['GET /status', 200, 'anonymous', null],
        ['GET /api/v1/version', 401, 'anonymous', null],
      ],
    );
    expect(lines.map((line) => line.fields?.request_id)).toEqual(
      answers.map((answer) => answer.headers.get('x-request-id')),
    );
  });
});
