import { AccountStatus } from '../../storage/membership/schema';

/** How long LPA waits for the membership server, answer body included, before it treats it as unreachable. */
export const FETCH_TIMEOUT_MS = 5000;
export const TIMED_OUT = `membership server did not answer within ${FETCH_TIMEOUT_MS / 1000} s`;

/**
 * One exchange with the membership server: `GET <url>/v1/account/status`, no credentials. It ends
 * within FETCH_TIMEOUT_MS whatever the server does, and throws with a reason a person can read when
 * the answer is not an account status.
 */
export async function fetchStatus(base: string): Promise<AccountStatus> {
  try {
    const response = await fetch(`${base.replace(/\/+$/, '')}/v1/account/status`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`membership server answered HTTP ${response.status}`);
    }
    const parsed = AccountStatus.safeParse(await response.json().catch(rethrowTimeout));
    if (!parsed.success) throw new Error('membership server answered something that is not an account status');
    return parsed.data;
  } catch (error) {
    if (isTimeout(error)) throw new Error(TIMED_OUT);
    throw error;
  }
}

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** A body that is not JSON is no account status; a body cut off by the timeout is a timeout. */
function rethrowTimeout(error: unknown): undefined {
  if (isTimeout(error)) throw error;
  return undefined;
}
