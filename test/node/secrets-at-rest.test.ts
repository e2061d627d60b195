import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { raw, startService, RUNTIMES } from './service';

/** Every regular file under a folder, however deep. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

describe.each(RUNTIMES)('secrets at rest on %s', (runtime) => {
  it('no file under the data root holds a stored password, 2FA secret, global value or protected value', async () => {
    const service = await startService(runtime);
    const secrets = {
      password: `pw-${crypto.randomUUID()}`,
      totp: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      global: `global-${crypto.randomUUID()}`,
      protectedValue: `protected-${crypto.randomUUID()}`,
    };
    try {
      const send = (method: string, path: string, body: unknown) =>
        raw(service.port, path, {
          method,
          headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const profile = await send('POST', '/api/v1/profiles', { name: 'at rest' });
      expect(profile.status).toBe(201);
      const account = await send('POST', `/api/v1/profiles/${profile.json.id}/accounts`, {
        platform_url: 'https://mail.example',
        password: secrets.password,
        totp_secret: secrets.totp,
      });
      expect(account.status).toBe(201);
      expect(
        (await send('PUT', '/api/v1/automation/globals/at_rest', { value: secrets.global, expected_revision: 0 }))
          .status,
      ).toBe(200);
      const flow = await send('POST', '/api/v1/automation/flows', {
        name: 'at rest',
        steps: [{ type: 'click', selector: '#login' }],
        values: [{ name: 'pw', value: secrets.protectedValue, protected: true }],
      });
      expect(flow.status).toBe(201);
      // Read them back (audited plaintext reads), so they have passed through every layer once.
      const password = await raw(
        service.port,
        `/api/v1/profiles/${profile.json.id}/accounts/${account.json.id}/password`,
        {
          headers: { authorization: `Bearer ${service.token}` },
        },
      );
      expect(password.json).toEqual({ password: secrets.password });
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
    const files = filesUnder(service.dataRoot);
    expect(files.some((f) => f.endsWith('.sqlite') || f.endsWith('.sqlite-wal'))).toBe(true);
    for (const file of files) {
      if (statSync(file).size === 0) continue;
      const bytes = readFileSync(file);
      for (const [kind, secret] of Object.entries(secrets)) {
        expect(bytes.includes(Buffer.from(secret)), `${kind} in ${file}`).toBe(false);
      }
    }
  });
});
