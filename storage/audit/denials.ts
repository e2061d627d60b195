import type { AuditContext } from './entry';
import type { ErrorCode } from '../../src/shared/errors/catalog';

/** How long repeated denials of one client for one reason are gathered into one entry. */
export const DENIAL_WINDOW_MS = 60_000;
/**
 * How many (client, reason, actor) windows are gathered at once. Memory and entries stay bounded
 * however many addresses a flood comes from: denials of further clients share one window per reason
 * and actor. The actor is never merged away: a denial that names a token keeps its token id and
 * label, and the tokens that can be named are the store's live tokens, a number the admin decides.
 */
export const MAX_OPEN_WINDOWS = 32;
/** The client address of a window that gathers the denials of many clients. */
export const MANY_CLIENTS = '*';

export interface Denial {
  audit: AuditContext;
  code: ErrorCode;
  details: { method: string; path: string; status: number; client_ip: string } & Record<string, unknown>;
}

interface Window {
  opened: number;
  /** Denials after the first one, which was written when the window opened. */
  count: number;
  firstAt: number;
  lastAt: number;
  latest: Denial;
}

/**
 * Gathers denials (401, 403, 429) so that a flood cannot grow the audit log. Per client address,
 * reason (error code) and actor (the token that was denied, or anonymous), the first denial in a window is written at once; the rest of that
 * window are only counted here, in memory, and need no store call; when the window has closed, one
 * more entry carries their count (`details.count`, `first_at`, `last_at`). A window's count is
 * written by the first denial of any client after the window closed; a crash or stop before that
 * loses it (the window's first entry is already written).
 *
 * Each store coalesces its own denials (`system.recordDenial`), in its object, where every request
 * of that store runs (src/object/store-object.ts).
 */
export class DenialCoalescer {
  private readonly open = new Map<string, Window>();

  /** The entries to write for this denial: itself if it opens a window, and the counts of closed windows. */
  admit(denial: Denial, now: number): Denial[] {
    const entries = this.closed(now);
    const actor = `${denial.audit.actor.type}:${denial.audit.actor.id}`;
    let key = `${denial.details.client_ip}\u0000${denial.code}\u0000${actor}`;
    if (!this.open.has(key) && this.open.size >= MAX_OPEN_WINDOWS) {
      key = `${MANY_CLIENTS}\u0000${denial.code}\u0000${actor}`;
      denial = { ...denial, details: { ...denial.details, client_ip: MANY_CLIENTS } };
    }
    const window = this.open.get(key);
    if (window) {
      if (window.count === 0) window.firstAt = now;
      window.count += 1;
      window.lastAt = now;
      window.latest = denial;
      return entries;
    }
    this.open.set(key, { opened: now, count: 0, firstAt: now, lastAt: now, latest: denial });
    return [...entries, denial];
  }

  /** Closes every window older than DENIAL_WINDOW_MS; the entries that carry their counts. */
  private closed(now: number): Denial[] {
    const entries: Denial[] = [];
    for (const [key, window] of this.open) {
      if (window.opened + DENIAL_WINDOW_MS > now) continue;
      this.open.delete(key);
      if (window.count === 0) continue;
      const { latest } = window;
      entries.push({
        ...latest,
        details: {
          ...latest.details,
          count: window.count,
          first_at: new Date(window.firstAt).toISOString(),
          last_at: new Date(window.lastAt).toISOString(),
        },
      });
    }
    return entries;
  }
}
