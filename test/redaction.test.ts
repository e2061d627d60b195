import fc from 'fast-check';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { redactTokens } from '../src/pipeline/redact';
import { adminTokenFingerprint, fingerprintMatches } from '../src/shared/admin-token';
import { sha256Hex } from '../src/shared/crypto';
import { sanitizeText } from '../src/shared/logs/sanitize';

const runs = inject('fuzzRuns') || 300;
const ADMIN_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'];
const adminToken = fc
  .array(fc.constantFrom(...ADMIN_CHARS), { minLength: 16, maxLength: 64 })
  .map((chars) => chars.join(''));
const issuedToken = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((body) => `lpa_${body}`);
/** Path-like text: letters, digits, separators, escapes, and the characters of tokens. */
const pathText = fc
  .array(fc.constantFrom(...'abcXYZ019/-._~+%?&=;,2F5f'), { maxLength: 40 })
  .map((chars) => chars.join(''));

/** Every character percent-encoded, once or more: `%6C%70%61…`. */
const encodedAll = (text: string, times: number) => {
  let out = text;
  for (let i = 0; i < times; i++)
    out = [...new TextEncoder().encode(out)]
      .map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`)
      .join('');
  return out;
};
const decodedFully = (text: string) => {
  let out = text;
  for (let i = 0; i < 4; i++)
    out = out.replace(/(?:%[0-9A-Fa-f]{2})+/g, (e) => {
      try {
        return decodeURIComponent(e);
      } catch {
        return e;
      }
    });
  return out;
};

describe('tokens in request text are found after percent-decoding and at any boundary', () => {
  it('never emits the admin token (known by hash and length), the bearer or an issued token', () => {
    fc.assert(
      fc.property(
        adminToken,
        issuedToken,
        pathText,
        pathText,
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('admin', 'issued', 'bearer'),
        fc.boolean(),
        (admin, issued, before, after, encodings, which, fingerprinted) => {
          const secret = which === 'admin' ? admin : issued;
          const secrets = {
            adminTokenSha256: sha256Hex(admin),
            adminTokenLength: admin.length,
            adminTokenFingerprint: fingerprinted ? adminTokenFingerprint(admin) : null,
            bearer: which === 'bearer' ? issued : null,
          };
          const out = redactTokens(`${before}${encodedAll(secret, encodings)}${after}`, secrets);
          expect(out).not.toContain(secret);
          expect(decodedFully(out)).not.toContain(secret);
        },
      ),
      { numRuns: runs },
    );
  });

  it('finds the examples of issue 23: lpa%5F…, TOKEN.json, x-TOKEN, TOKEN%2F', () => {
    const admin = 'Custom-Admin.Token~42';
    const secrets = {
      adminTokenSha256: sha256Hex(admin),
      adminTokenLength: admin.length,
      adminTokenFingerprint: null,
      bearer: null,
    };
    for (const path of [
      `/api/v1/x/${admin}.json`,
      `/api/v1/x-${admin}`,
      `/api/v1/${admin}%2F`,
      `/a/${encodeURIComponent(admin)}`,
    ]) {
      expect(redactTokens(path, secrets)).not.toContain(admin);
    }
    const issued = 'lpa_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
    expect(redactTokens(`/api/v1/${issued.replace('_', '%5F')}`, { ...secrets, bearer: null })).not.toContain(
      issued.slice(4),
    );
  });

  it('keeps text without tokens as it was sent', () => {
    const secrets = {
      adminTokenSha256: sha256Hex('Custom-Admin.Token~42'),
      adminTokenLength: 21,
      adminTokenFingerprint: adminTokenFingerprint('Custom-Admin.Token~42'),
      bearer: null,
    };
    for (const path of [
      '/api/v1/automation/files/content?name=a%20b.txt',
      '/api/v1/profiles/3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8',
    ]) {
      expect(redactTokens(path, secrets)).toBe(path);
    }
  });

  it('rolls the fingerprint to the windows a direct count gives, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...'ab'), { minLength: 0, maxLength: 80 }).map((c) => c.join('')),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 2, max: 5 }),
        (run, length, base) => {
          // A tiny base over two letters makes windows of equal fingerprint common, so the comparison has matches to check.
          const value = adminTokenFingerprint(run.slice(0, length), base).value;
          const direct = [];
          for (let at = 0; at + length <= run.length; at++)
            if (adminTokenFingerprint(run.slice(at, at + length), base).value === value) direct.push(at);
          expect([...fingerprintMatches(run, length, { base, value })]).toEqual(direct);
        },
      ),
      { numRuns: runs },
    );
  });

  it('hashes only the windows whose fingerprint matches: in 60 KB of token characters, the token and about no other', () => {
    const admin = 'lpa_Q2hhbmdlLW1lLXBsZWFzZS0wMTIzNDU2Nzg5YWJjZA';
    const fingerprint = adminTokenFingerprint(admin);
    const filler = Array.from(
      { length: 60_000 },
      (_, i) => ADMIN_CHARS[(Math.imul(i + 1, 2_654_435_761) >>> 0) % ADMIN_CHARS.length],
    ).join('');
    const starts = [...fingerprintMatches(`${filler}${admin}`, admin.length, fingerprint)];
    expect(starts).toContain(filler.length);
    expect(starts.length).toBeLessThanOrEqual(3);
    const secrets = {
      adminTokenSha256: sha256Hex(admin),
      adminTokenLength: admin.length,
      adminTokenFingerprint: fingerprint,
      bearer: null,
    };
    expect(redactTokens(`/api/v1/${filler}${admin}`, secrets)).toBe(`/api/v1/${filler}[redacted]`);
  });

  // The digit was once looked for again from each `_`: 64 KB of `ab_` took a second, 200 KB twelve.
  // No admin token here: its search hashes each place of a run, which is a cost of its own.
  it('reads a long run of token-like words once: redacted with a digit in it, kept without', () => {
    const secrets = { adminTokenSha256: '', adminTokenLength: 0, adminTokenFingerprint: null, bearer: null };
    const run = `/${'ab_'.repeat(70_000)}`;
    const began = Date.now();
    expect(redactTokens(run, secrets)).toBe(run);
    expect(redactTokens(`${run}7`, secrets)).toBe('/ab_[redacted]');
    expect(Date.now() - began).toBeLessThan(1_000);
  });
});

describe('log excerpts never show a credential in the forms tools print', () => {
  const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/);
  const forms: [string, (s: string) => string][] = [
    ['a repeated Bearer scheme', (s) => `bearer Bearer ${s}`],
    ['a repeated Basic scheme', (s) => `basic Basic ${s}`],
    ['an Authorization header', (s) => `Authorization: Bearer ${s}`],
    ['--token', (s) => `lpa --token ${s}`],
    ['--token=', (s) => `lpa --token=${s}`],
    ['--proxy-pass', (s) => `chromium --proxy-pass ${s}`],
    ['--password', (s) => `tool --password ${s}`],
    ['curl -u', (s) => `curl -u user:${s} https://example.test`],
    ['curl --user', (s) => `curl --user admin:${s}`],
    ['mysql -p', (s) => `mysql -uroot -p${s} db`],
    ['password=', (s) => `password=${s}`],
    ['a URL password', (s) => `https://user:${s}@host.example/path`],
    ['the variable sshpass -e reads', (s) => `SSHPASS=${s} sshpass -e ssh admin@10.0.0.2`],
  ];
  const words = fc.array(fc.stringMatching(/^[a-z0-9.:/]{0,10}$/), { maxLength: 6 }).map((w) => w.join(' '));
  it.each(forms)('%s, wherever it stands in a line', (_, form) => {
    fc.assert(
      fc.property(secret, words, words, (s, before, after) => {
        expect(sanitizeText(`${before} ${form(s)} ${after}`)).not.toContain(s);
      }),
      { numRuns: runs },
    );
  });

  /**
   * An auth scheme, in any case: the ones in use (IANA's registry, `Token`, `AWS4-HMAC-SHA256`, `SSWS`…)
   * are letters, digits, `-`, `_`, `.` and `~`, as a token68 credential is too.
   */
  const scheme = fc.oneof(
    fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', 'token', 'Digest', 'Negotiate', 'AWS4-HMAC-SHA256'),
    fc.stringMatching(/^[A-Za-z][A-Za-z0-9._~-]{0,15}$/),
  );
  const header = fc.constantFrom(
    'Authorization: ',
    'authorization: ',
    'AUTHORIZATION:',
    'Proxy-Authorization: ',
    'authorization = ',
    'Authorisation: ',
    '-H "Authorization: ',
  );

  it('an Authorization header of any scheme, the scheme repeated or not, wherever it stands in a line', () => {
    fc.assert(
      fc.property(
        secret,
        header,
        fc.array(scheme, { minLength: 1, maxLength: 3 }),
        words,
        words,
        (s, name, schemes, before, after) => {
          expect(sanitizeText(`${before} ${name}${schemes.join(' ')} ${s} ${after}`)).not.toContain(s);
        },
      ),
      { numRuns: runs },
    );
  });

  it('the password of sshpass -p, after any of its other options', () => {
    const options = fc.array(fc.constantFrom('-e', '-v', '-P assword:', '-f ~/.pw', '-d 3'), { maxLength: 2 });
    const quoted = fc.constantFrom(
      (s: string) => s,
      (s: string) => `'${s}'`,
      (s: string) => `"${s}"`,
    );
    fc.assert(
      fc.property(secret, options, quoted, fc.constantFrom(' ', '  ', ''), words, (s, before, quote, space, after) => {
        const line = `sshpass ${[...before, `-p${space}${quote(s)}`].join(' ')} ssh -p 22 admin@10.0.0.2 ${after}`;
        expect(sanitizeText(line)).not.toContain(s);
      }),
      { numRuns: runs },
    );
  });

  it('keeps the fields after an Authorization header and the port of ssh -p', () => {
    expect(sanitizeText('authorization=Token Known1 status=401 ip=127.0.0.1')).toBe(
      'authorization=[redacted] status=401 ip=127.0.0.1',
    );
    expect(sanitizeText('ssh -p 2222 admin@10.0.0.2')).toBe('ssh -p 2222 admin@10.0.0.2');
  });
});
