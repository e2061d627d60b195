import { expect } from 'vitest';
import type { z } from 'zod';
import type { NewFlow } from '../../storage/flows/schema';
import { call } from './api';

/** Tests that move megabytes get longer than vitest's default five seconds, for a loaded machine. */
export const LARGE_TIMEOUT_MS = 60_000;

export function expectError(res: { status: number; json: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.json).toMatchObject({
    error: { code, message: expect.any(String), details: expect.any(Object) },
    request_id: expect.any(String),
  });
}

/** Creates a flow through the API and returns its id. */
export async function createFlow(input: z.input<typeof NewFlow>): Promise<string> {
  const res = await call('/api/v1/automation/flows', { method: 'POST', body: input });
  if (res.status !== 201) throw new Error(`flow creation failed: ${res.text}`);
  return res.json.id as string;
}
