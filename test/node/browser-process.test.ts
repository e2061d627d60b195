import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { killBrowser, spawnBrowser } from '../../src/host/node/browsers/browser-process';

/** The nice of a process's session, as Linux's autogroup scheduler reads it ("/autogroup-12 nice 10"). */
const sessionNice = (pid: number) => Number(/nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1]);

describe.skipIf(process.platform !== 'linux')("a starting browser's session", () => {
  it('starts at the nice asked for, and weighs as any session once 5 s have passed without an answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // A stand-in for a browser that never answers DevTools.
    const child = spawnBrowser('/bin/sh', ['-c', 'sleep 60'], { stdio: 'ignore', nice: 7 });
    try {
      expect(sessionNice(child.pid!)).toBe(7);
      await vi.advanceTimersByTimeAsync(4_900);
      expect(sessionNice(child.pid!)).toBe(7);
      // Linux refuses a second change within 100 ms to a user without CAP_SYS_ADMIN: it is made again 100 ms later.
      await vi.advanceTimersByTimeAsync(300);
      expect(sessionNice(child.pid!)).toBe(0);
    } finally {
      vi.useRealTimers();
      killBrowser(child);
    }
  });
});
