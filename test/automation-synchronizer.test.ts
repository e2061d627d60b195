import { expect, it } from 'vitest';
import { call, tokenWith } from './support/api';
import { expectError } from './support/automation';

it('reports an idle synchronizer with every field', async () => {
  const res = await call('/api/v1/automation/synchronizer');
  expect(res.status).toBe(200);
  expect(res.json).toEqual({
    running: false,
    source_id: null,
    follower_ids: [],
    mode: 'element',
    options: {
      clicks: true,
      keys: true,
      text_input: true,
      scroll: true,
      navigation: true,
      tabs: true,
      delay_ms: { min: 0, max: 0 },
      copy_window_size: true,
    },
    tabs: [],
    events: [],
    error: null,
  });
});

it('needs runtime:control', async () => {
  const none = await tokenWith([]);
  const res = await call('/api/v1/automation/synchronizer', { token: none.token });
  expectError(res, 403, 'auth.scope_missing');
  expect(res.json.error.details.missing).toEqual(['runtime:control']);
});
