import { describe, expect, it } from 'vitest';
import { call, tokenWith } from './support/api';
import { logLineWith, plant, readDataFile, todaysLog } from './support/log-files';

type Answer = Awaited<ReturnType<typeof call>>;

const ANONYMOUS = 'actor=anonymous actor_id=-';

/** A secret no log may ever hold, unique to this run. */
const known = (label: string) => `s3cr3t-${label}-${crypto.randomUUID()}`;
/** A well-formed LPA token that is not issued. */
const fakeToken = () => `lpa_${crypto.randomUUID().replaceAll('-', '')}Zz9`;

/**
 * Requests that carry secrets, through every route family that reads or writes one. Each says what it sent,
 * every secret string the request or its answer held, and the request line its `api` log line must
 * show. A new route family adds its requests here.
 */
interface SecretRequest {
  name: string;
  /** `actor` is the line's actor fields; the admin session unless told otherwise. */
  send(): Promise<{ res: Answer; secrets: string[]; logged: string; actor?: string }>;
}

const SECRET_REQUESTS: SecretRequest[] = [
  {
    name: 'a token issued (the token is in the answer)',
    async send() {
      const res = await call('/api/v1/tokens', {
        method: 'POST',
        body: { name: 'secret-test', scopes: ['audit:read'] },
      });
      return { res, secrets: [res.json.token], logged: 'POST /api/v1/tokens' };
    },
  },
  {
    name: 'a request authenticated by an issued token',
    async send() {
      const { id, token } = await tokenWith(['audit:read']);
      const res = await call('/api/v1/system/logs', { token });
      return { res, secrets: [token], logged: 'GET /api/v1/system/logs', actor: `actor=token actor_id=${id}` };
    },
  },
  {
    name: 'a revoked token',
    async send() {
      const { id, token } = await tokenWith(['audit:read']);
      await call(`/api/v1/tokens/${id}`, { method: 'DELETE' });
      const res = await call('/api/v1/system/logs', { token });
      return { res, secrets: [token], logged: 'GET /api/v1/system/logs', actor: ANONYMOUS };
    },
  },
  {
    name: 'a well-formed token that was never issued',
    async send() {
      const token = fakeToken();
      return {
        res: await call('/api/v1/version', { token }),
        secrets: [token],
        logged: 'GET /api/v1/version',
        actor: ANONYMOUS,
      };
    },
  },
  {
    name: 'Basic credentials in the Authorization header',
    async send() {
      const password = known('basic');
      const encoded = btoa(`alice:${password}`);
      const res = await call('/api/v1/version', { token: null, headers: { authorization: `Basic ${encoded}` } });
      return { res, secrets: [password, encoded], logged: 'GET /api/v1/version', actor: ANONYMOUS };
    },
  },
  {
    name: 'an Authorization header of another scheme',
    async send() {
      const secret = known('scheme');
      const res = await call('/api/v1/version', { token: null, headers: { authorization: `Token ${secret}` } });
      return { res, secrets: [secret], logged: 'GET /api/v1/version', actor: ANONYMOUS };
    },
  },
  {
    name: 'an unknown route with secrets in the query',
    async send() {
      const names = [
        'token',
        'access_token',
        'password',
        'secret',
        'code',
        'totp',
        'client_secret',
        'Authorization',
        'value',
      ];
      const secrets = names.map(known);
      const query = names.map((name, i) => `${name}=${secrets[i]}`).join('&');
      const res = await call(`/api/v1/nope?${query}&limit=5`);
      return {
        res,
        secrets,
        logged: `GET /api/v1/nope?${names.map((name) => `${name}=[redacted]`).join('&')}&limit=5`,
      };
    },
  },
  {
    name: 'a percent-encoded secret query name',
    async send() {
      const secret = known('encoded');
      const res = await call(`/api/v1/nope?pass%77ord=${secret}`);
      return { res, secrets: [secret], logged: 'GET /api/v1/nope?password=[redacted]' };
    },
  },
  {
    name: 'a token in the path of an unknown route',
    async send() {
      const token = fakeToken();
      return { res: await call(`/api/v1/nope/${token}`), secrets: [token], logged: 'GET /api/v1/nope/lpa_[redacted]' };
    },
  },
  {
    name: 'a token in the query of a known route',
    async send() {
      const token = fakeToken();
      const res = await call(`/api/v1/system/status?access_token=${token}`);
      return { res, secrets: [token], logged: 'GET /api/v1/system/status?access_token=[redacted]' };
    },
  },
  {
    name: 'a settings write with secrets in the query and the body',
    async send() {
      const [key, password] = [known('api-key'), known('body-password')];
      const res = await call(`/api/v1/settings/logs?api_key=${key}`, {
        method: 'PUT',
        body: { retention_days: 30, password },
      });
      return { res, secrets: [key, password], logged: 'PUT /api/v1/settings/logs?api_key=[redacted]' };
    },
  },
  {
    name: 'a settings write with a secret in an unknown body field',
    async send() {
      const secret = known('totp-secret');
      const res = await call('/api/v1/settings/logs', {
        method: 'PUT',
        body: { retention_days: 30, totp_secret: secret },
      });
      return { res, secrets: [secret], logged: 'PUT /api/v1/settings/logs' };
    },
  },
  {
    name: 'a global value written',
    async send() {
      const [name, value] = [`LOG_SECRET_${crypto.randomUUID().slice(0, 8)}`, known('global')];
      const res = await call(`/api/v1/automation/globals/${name}`, {
        method: 'PUT',
        body: { value, expected_revision: 0 },
      });
      return { res, secrets: [value], logged: `PUT /api/v1/automation/globals/${name}` };
    },
  },
  {
    name: 'a global value read (the value is in the answer)',
    async send() {
      const [name, value] = [`LOG_SECRET_${crypto.randomUUID().slice(0, 8)}`, known('global-read')];
      await call(`/api/v1/automation/globals/${name}`, { method: 'PUT', body: { value, expected_revision: 0 } });
      const res = await call(`/api/v1/automation/globals/${name}`);
      expect(res.json).toEqual({ value, revision: 1 });
      return { res, secrets: [value], logged: `GET /api/v1/automation/globals/${name}` };
    },
  },
  {
    name: 'a share created with secrets (the code is in the answer)',
    async send() {
      const { res, secrets } = await sharedFlow();
      return { res, secrets, logged: 'POST /api/v1/automation/shares' };
    },
  },
  {
    name: 'a share code redeemed, and its ticket imported',
    async send() {
      const { res: created, secrets } = await sharedFlow();
      const preview = await call('/api/v1/automation/shares/redeem', {
        method: 'POST',
        body: { code: created.json.code },
      });
      expect(preview.status).toBe(200);
      const res = await call('/api/v1/automation/shares/import', {
        method: 'POST',
        body: { ticket: preview.json.ticket, ids: [created.json.flow] },
      });
      expect(res.status).toBe(200);
      return { res, secrets: [...secrets, preview.json.ticket], logged: 'POST /api/v1/automation/shares/import' };
    },
  },
  {
    name: 'a file written and read back (its content is in the answer)',
    async send() {
      const [name, text] = [`log-secret-${crypto.randomUUID().slice(0, 8)}.txt`, known('file')];
      await call('/api/v1/automation/files', { method: 'POST', body: { name, base64: btoa(text) } });
      const res = await call(`/api/v1/automation/files/content?name=${name}`);
      expect(res.json).toEqual({ base64: btoa(text) });
      return { res, secrets: [text, btoa(text)], logged: `GET /api/v1/automation/files/content?name=${name}` };
    },
  },
];

/** A flow with a protected value, shared with its secrets; the answer carries the share code. */
async function sharedFlow() {
  const secret = known('protected');
  const flow = await call('/api/v1/automation/flows', {
    method: 'POST',
    body: {
      name: `log-secret-${crypto.randomUUID()}`,
      steps: [{ type: 'wait', ms: 1 }],
      values: [{ name: 'password', value: secret, protected: true }],
    },
  });
  const res = await call('/api/v1/automation/shares', {
    method: 'POST',
    body: { ids: [flow.json.id], name: 'log secrets', expires_in_minutes: 60, max_uses: 5, include_secrets: true },
  });
  expect(res.status).toBe(200);
  res.json.flow = flow.json.id;
  return { res, secrets: [secret, res.json.code as string] };
}

const ISO = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the api log never holds a secret', () => {
  const allSecrets: string[] = [];

  it.each(SECRET_REQUESTS.map((request) => [request.name, request] as const))('%s', async (_, request) => {
    const { res, secrets, logged, actor = 'actor=admin actor_id=-' } = await request.send();
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(secret).toMatch(/^.{8,}$/);
    allSecrets.push(...secrets);
    const requestId = res.headers.get('x-request-id')!;
    const line = await logLineWith(todaysLog('api'), `request_id=${requestId}`);
    expect(line).toMatch(
      new RegExp(
        `^${ISO} (INFO|ERROR) ${escape(logged)} status=${res.status} duration_ms=\\d+ request_id=${requestId} ${escape(actor)} ip=127\\.0\\.0\\.1$`,
      ),
    );
    for (const secret of secrets) expect(line).not.toContain(secret);
  });

  it('nor does any file LPA wrote, nor an excerpt of them', async () => {
    expect(allSecrets.length).toBeGreaterThan(SECRET_REQUESTS.length);
    for (const stream of ['api', 'core', 'jobs']) {
      const { text } = await readDataFile(todaysLog(stream));
      for (const secret of allSecrets) expect(text).not.toContain(secret);
    }
    const file = todaysLog('api').split('/').pop()!;
    const res = await call(`/api/v1/system/logs/api/${file}`);
    expect(res.status).toBe(200);
    for (const secret of allSecrets) expect(res.text).not.toContain(secret);
  });
});

describe('an excerpt is sanitized as it is served', () => {
  it('redacts the secrets that another program wrote', async () => {
    const file = `secrets-${crypto.randomUUID().slice(0, 8)}.log`;
    const lines = [
      [
        '2026-11-20T10:00:00Z kernel started pid=4242 error_code=auth.token_invalid',
        '2026-11-20T10:00:00Z kernel started pid=4242 error_code=auth.token_invalid',
      ],
      [
        'GET https://example.com/login?user=alice&password=Hunter2Known&next=/home',
        'GET https://example.com/login?user=alice&password=[redacted]&next=/home',
      ],
      ['Authorization: Bearer lpa_KnownTokenValue0123456789abcdef', 'Authorization: [redacted]'],
      ['retrying with bearer abc.def-ghi', 'retrying with bearer [redacted]'],
      ['saw lpa_AnotherKnownToken_0123456789 in a url', 'saw lpa_[redacted] in a url'],
      [
        '{"totp_secret":"JBSWY3DPEHPK3PXP","name":"alice","code": 123456}',
        '{"totp_secret":"[redacted]","name":"alice","code": [redacted]}',
      ],
      ['proxy http://bob:ProxyPass99@10.0.0.1:8080 up', 'proxy http://bob:[redacted]@10.0.0.1:8080 up'],
      [
        'share share_code=SHAREcodeKnown123 global value=GlobalValueKnown',
        'share share_code=[redacted] global value=[redacted]',
      ],
      ['imported AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd done', 'imported [redacted] done'],
      ['x-api-key: KnownApiKey7 Cookie: sid=KnownSession', 'x-api-key: [redacted] Cookie: [redacted]'],
      [
        'id 8a4f9c2e-1b2d-4c3e-9f00-123456789abc sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        'id 8a4f9c2e-1b2d-4c3e-9f00-123456789abc sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      ],
      [
        'seed JBSWY3DPEHPK3PXP and "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP==" stored',
        'seed [redacted] and "[redacted]" stored',
      ],
      [
        'codes AUTH_TOKEN_INVALID HTTP/1.1 ABCDEFGHIJKLMNO 9F86D081884C7D659A2FEAA0C55AD015',
        'codes AUTH_TOKEN_INVALID HTTP/1.1 ABCDEFGHIJKLMNO 9F86D081884C7D659A2FEAA0C55AD015',
      ],
      [
        'retry bearer=9f86d081884c7d659a2f BEARER=KnownB Token=Known1 TOKEN: Known2',
        'retry bearer=[redacted] BEARER=[redacted] Token=[redacted] TOKEN: [redacted]',
      ],
      [
        'GET /cb?next=%2Flogin%3Fuser%3Dbob%26password%3DHunter2Known&q=password%253DKnown3&x=1',
        'GET /cb?next=%2Flogin%3Fuser%3Dbob%26password%3D[redacted]&q=password%253D[redacted]&x=1',
      ],
      ['GET /x?auth=Bearer%20KnownBearer9', 'GET /x?auth=Bearer%20[redacted]'],
      // Issue 34: any scheme, a scheme twice, sshpass.
      ['Authorization: Token KnownSchemeToken1', 'Authorization: [redacted]'],
      ['authorization: bearer bearer KnownTwiceBearer2 status=401', 'authorization: [redacted] status=401'],
      ['sshpass -p KnownSshPass3 ssh -p 22 admin@10.0.0.2', 'sshpass -p [redacted] ssh -p 22 admin@10.0.0.2'],
      ['SSHPASS=KnownSshPass4 sshpass -e ssh admin@10.0.0.2', 'SSHPASS=[redacted] sshpass -e ssh admin@10.0.0.2'],
    ];
    const written = lines.map(([raw]) => `${raw}\n`).join('');
    await plant(`logs/kernel/${file}`, written);
    const res = await call(`/api/v1/system/logs/kernel/${file}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      stream: 'kernel',
      file,
      size: new TextEncoder().encode(written).length,
      modified_at: expect.any(Number),
      text: lines.map(([, served]) => `${served}\n`).join(''),
      lines: lines.length,
      truncated: false,
    });
  });
});

/**
 * An `api` line as a reader takes it apart (docs/logs.md#line-format): time, level, the message (one
 * JSON string when it starts with a quote, else up to the first field), then `key=value` fields,
 * each value bare or one JSON string.
 */
function parseLine(line: string): { message: string; fields: [string, string][] } {
  const head = /^\S+ (?:INFO|WARN|ERROR) /.exec(line)![0];
  let rest = line.slice(head.length);
  let message: string;
  if (rest.startsWith('"')) {
    const quoted = /^"(?:[^"\\]|\\.)*"/.exec(rest)![0];
    message = JSON.parse(quoted);
    rest = rest.slice(quoted.length);
  } else {
    const end = rest.search(/ [A-Za-z0-9_.-]+=/);
    message = end === -1 ? rest : rest.slice(0, end);
    rest = end === -1 ? '' : rest.slice(end);
  }
  const fields: [string, string][] = [];
  const field = / ([A-Za-z0-9_.-]+)=("(?:[^"\\]|\\.)*"|[^\s"]+)/y;
  let read = 0;
  for (let match; (match = field.exec(rest)); read = field.lastIndex)
    fields.push([match[1]!, match[2]!.startsWith('"') ? JSON.parse(match[2]!) : match[2]!]);
  expect(rest.slice(read)).toBe('');
  return { message, fields };
}

describe('the api log line holds what the request sent as text, never as fields', () => {
  it('a query cannot forge a field, and separators and control characters are escaped', async () => {
    const query = `search=${encodeURIComponent('x status=500 ip=10.9.9.9 "q"\\')}&q=${encodeURIComponent('a\u2028b\u2029c\u0085d\u202ee\u0007f\u009b')}`;
    const res = await call(`/api/v1/nope?${query}`);
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id')!;
    const line = await logLineWith(todaysLog('api'), `request_id=${requestId}`);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]/u);
    const { message, fields } = parseLine(line);
    expect(message).toBe(
      'GET /api/v1/nope?search=x status=500 ip=10.9.9.9 "q"\\&q=a\u2028b\u2029c\u0085d\u202ee\u0007f\u009b',
    );
    expect(fields.map(([key]) => key)).toEqual(['status', 'duration_ms', 'request_id', 'actor', 'actor_id', 'ip']);
    expect(Object.fromEntries(fields)).toMatchObject({ status: '404', request_id: requestId, ip: '127.0.0.1' });
  });

  it('a plain request line stays bare', async () => {
    const res = await call('/api/v1/version?limit=5');
    const line = await logLineWith(todaysLog('api'), `request_id=${res.headers.get('x-request-id')}`);
    expect(line).toContain(' INFO GET /api/v1/version?limit=5 status=');
    expect(parseLine(line).message).toBe('GET /api/v1/version?limit=5');
  });
});
