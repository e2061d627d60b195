import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lpaRunner } from './cli-run';
import type { RunningService } from './service';

/**
 * What a hostile service (or a hostile team, whose answers a joined machine passes on) can put in
 * its text: colours, a cursor move, a window title, a bell, a carriage return over the line, the C1
 * CSI, DEL, a line separator and a right-to-left override.
 */
const HOSTILE = 'a\u001b[31m<b>\u0007\u009b2J\r\u001b]0;pwned\u0007\u202eevil\u2028x\u007f';
/** Every character the CLI must never print unless it wrote it itself (a line feed of its own). */
const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/u;

const profile = {
  id: 'p1',
  no: 1,
  name: HOSTILE,
  group: HOSTILE,
  tags: [HOSTILE],
  pinned: false,
  notes: HOSTILE,
  created_at: 0,
  updated_at: 0,
};

/** The answers of a service that means harm: good shapes, hostile text; an error envelope for the rest. */
const ANSWERS: Record<string, [number, unknown]> = {
  '/api/v1/profiles': [200, { items: [profile], next_cursor: null, total: 1 }],
  '/api/v1/profiles/p1': [200, profile],
  '/api/v1/system/logs/api/x.log': [
    200,
    {
      stream: 'api',
      file: 'x.log',
      size: 1,
      modified_at: 0,
      text: `one ${HOSTILE}\ntwo\n`,
      lines: 2,
      truncated: false,
    },
  ],
};
const ERROR = {
  error: {
    code: `team.x\u001b[31m<b>`,
    message: HOSTILE,
    details: { reason: HOSTILE, issues: [{ in: 'body', path: [HOSTILE], message: HOSTILE }] },
  },
  request_id: HOSTILE,
};

let server: Server;
let service: RunningService;
const lpa = lpaRunner(() => service);

beforeAll(async () => {
  server = createServer((request, response) => {
    const [status, body] = ANSWERS[new URL(request.url!, 'http://x').pathname] ?? [502, ERROR];
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service = { port: (server.address() as AddressInfo).port, token: 'lpa_any' } as RunningService;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the CLI prints no control character it did not write itself', () => {
  it.each([
    ['a table', ['profiles', 'list']],
    ['key: value lines', ['profiles', 'get', 'p1']],
    ['a log excerpt', ['logs', 'show', 'api', 'x.log']],
    ['an error', ['globals', 'get', 'X']],
  ])('%s, as text and as JSON', async (_, args) => {
    for (const json of [false, true]) {
      const run = await lpa(json ? [...args, '--json'] : args);
      const printed = run.stdout + run.stderr;
      expect(printed.replaceAll('\n', ''), printed).not.toMatch(UNSAFE);
      // Shown, not hidden: each character as its escape.
      expect(printed).toContain('\\u001b[31m<b>');
      if (!json) expect(printed).toContain('\\u0007\\u009b2J\\u000d\\u001b]0;pwned\\u0007\\u202eevil\\u2028x\\u007f');
    }
  });

  it('keeps the lines of a log excerpt, and a JSON answer means what the service sent', async () => {
    expect((await lpa(['logs', 'show', 'api', 'x.log'])).stdout.split('\n').slice(1)).toEqual(['two', '', '']);
    expect(JSON.parse((await lpa(['profiles', 'get', 'p1', '--json'])).stdout)).toEqual(profile);
    expect(JSON.parse((await lpa(['globals', 'get', 'X', '--json'])).stderr)).toEqual(ERROR);
  });
});
