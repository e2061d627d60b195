import { expect, it } from 'vitest';
import { call } from './support/api';

it('answers', async () => {
  const s = await call('/status', { token: null });
  console.log(s.status, s.text);
  const v = await call('/api/v1/system/status');
  console.log(v.status, v.text);
  expect(v.status).toBe(200);
});
