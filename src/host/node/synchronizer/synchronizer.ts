import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  IDLE_SYNCHRONIZER,
  type SyncOptions,
  type SynchronizerStatus,
  type SyncMode,
} from '../../../shared/schemas/synchronizer';
import type { SyncLaunch, SyncStartResult } from '../../synchronizer-schema';
import type { DevtoolsEvent, DevtoolsRelay } from '../browsers/devtools-relay';
import { type CapturedEvent, captureScript, resolveScript, scrollScript, SYNC_WORLD } from './page-scripts';

/** A follower that falls this many events behind drops the next ones rather than replay stale input. */
const MAX_PENDING = 500;
/** How long a follower's own tab, opened by a mirrored click, is waited for before one is opened for it. */
const OPENED_WAIT_MS = 3_000;
/** The tabs a follower's pages opened that are kept for pairing with the source's. */
const OPENED_KEPT = 20;
/** Navigations the address bar makes (and reloads): mirrored. A click's or a script's follows from what was mirrored. */
const TYPED_TRANSITIONS = new Set([
  'typed',
  'address_bar',
  'auto_bookmark',
  'generated',
  'keyword',
  'keyword_generated',
  'reload',
]);

const Descriptor = z
  .object({
    tag: z.string(),
    id: z.string().nullable(),
    name: z.string().nullable(),
    role: z.string().nullable(),
    label: z.string().nullable(),
    text: z.string().nullable(),
    path: z.string(),
  })
  .nullable();
/** What the capture sends, checked: it comes out of a page. */
const Captured: z.ZodType<CapturedEvent> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('click'),
    x: z.number(),
    y: z.number(),
    count: z.int().min(1).max(3),
    target: Descriptor,
  }),
  z.object({
    kind: z.literal('key'),
    key: z.string().max(40),
    code: z.string().max(40),
    keyCode: z.int(),
    modifiers: z.int().min(0).max(15),
    target: Descriptor,
  }),
  z.object({ kind: z.literal('text'), text: z.string().max(10_000), target: Descriptor }),
  z.object({ kind: z.literal('scroll'), x: z.number(), y: z.number(), fx: z.number(), fy: z.number() }),
]);

/** An event to replay: a captured one, or what the host saw of the source's tabs. */
type SyncEvent =
  | CapturedEvent
  | { kind: 'navigate'; url: string; reload: boolean }
  /** Back (negative) or forward through the tab's history, as its back and forward buttons do. */
  | { kind: 'history'; delta: number }
  | { kind: 'open'; opener: string | null }
  | { kind: 'close' };

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  openerId?: string;
}

/** A source tab: its session (LPA's own), and the tab mirroring it on each follower. */
interface SourceTab {
  targetId: string;
  sessionId: string | null;
  url: string;
  /** Its history when it last navigated: the entries' ids and where it stood among them. */
  history?: { ids: number[]; index: number };
}

/** A follower's tab: its session, and whether it was opened for the source's and has not navigated yet. */
interface FollowerTab {
  targetId: string;
  sessionId: string;
  fresh: boolean;
}

class Follower {
  alive = true;
  captured = 0;
  replayed = 0;
  missed = 0;
  dropped = 0;
  lastEventAt: number | null = null;
  pending = 0;
  queue: Promise<void> = Promise.resolve();
  /** Source tab id → this follower's tab. */
  readonly tabs = new Map<string, FollowerTab>();
  /** Tabs its own pages opened (opener tab id → their ids), for a mirrored click that opens a tab. */
  readonly opened: { targetId: string; openerId: string }[] = [];
  unlisten: () => void = () => {};

  constructor(
    readonly profileId: string,
    readonly relay: DevtoolsRelay,
    readonly runId: string,
  ) {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One synchronizer session: the source's input captured in its pages (an isolated world and a
 * DevTools binding on LPA's own sessions, no patched browser) and replayed on every follower, each in
 * its own queue so that a slow or dead one holds up no other.
 */
class SyncSession {
  running = true;
  error: SynchronizerStatus['error'] = null;
  private readonly binding = `__lpa_${randomBytes(8).toString('hex')}`;
  private readonly tabs = new Map<string, SourceTab>();
  private readonly followers = new Map<string, Follower>();
  private unlistenSource: () => void = () => {};

  constructor(
    readonly sourceId: string,
    private readonly source: DevtoolsRelay,
    followers: { profileId: string; relay: DevtoolsRelay; runId: string }[],
    readonly mode: SyncMode,
    readonly options: SyncOptions,
  ) {
    for (const { profileId, relay, runId } of followers)
      this.followers.set(profileId, new Follower(profileId, relay, runId));
  }

  /** Attaches to every browser, pairs the tabs, and starts capturing. */
  async open(): Promise<void> {
    this.unlistenSource = this.source.listen({
      event: (event) => this.fromSource(event),
      closed: (reason) =>
        this.end({ code: 'synchronizer.source_lost', profile_id: this.sourceId, message: reason.message }),
    });
    const sourcePages = await this.pages(this.source);
    for (const follower of this.followers.values()) {
      follower.unlisten = follower.relay.listen({
        event: (event) => this.fromFollower(follower, event),
        closed: (reason) => this.lose(follower, reason.message),
      });
      await follower.relay.call('Target.setDiscoverTargets', { discover: true });
    }
    const followerPages = new Map(
      await Promise.all(
        [...this.followers.values()].map(async (f) => [f.profileId, await this.pages(f.relay)] as const),
      ),
    );
    for (const [index, page] of sourcePages.entries()) {
      const tab: SourceTab = { targetId: page.targetId, sessionId: null, url: page.url };
      this.tabs.set(page.targetId, tab);
      await this.capture(tab);
      await Promise.all(
        [...this.followers.values()].map(async (follower) => {
          const own = followerPages.get(follower.profileId)?.[index];
          const paired = own ? await this.attach(follower, own.targetId, false) : await this.openFor(follower, null);
          follower.tabs.set(tab.targetId, paired);
          const url = (own?.url ?? 'about:blank') === page.url ? null : page.url;
          if (url && this.options.navigation && /^(https?|file|about):/.test(url))
            await follower.relay.call('Page.navigate', { url, transitionType: 'typed' }, paired.sessionId);
        }),
      );
    }
    if (this.options.copy_window_size && sourcePages[0]) await this.copyWindowSize(sourcePages[0].targetId);
    await this.source.call('Target.setDiscoverTargets', { discover: true });
  }

  /** Stops capturing and lets go of every browser (each session LPA attached is detached, so its binding goes too). */
  close(): void {
    if (!this.running) return;
    this.running = false;
    this.unlistenSource();
    for (const tab of this.tabs.values())
      if (tab.sessionId) this.source.call('Target.detachFromTarget', { sessionId: tab.sessionId }).catch(() => {});
    this.source.call('Target.setDiscoverTargets', { discover: false }).catch(() => {});
    for (const follower of this.followers.values()) this.release(follower);
  }

  /**
   * A browser of the session is being stopped: before it closes its tabs, the session lets go of it
   * (a closing source would otherwise close the followers' tabs too).
   */
  ending(runId: string, sourceRunId: string): void {
    if (runId === sourceRunId)
      this.end({ code: 'synchronizer.source_lost', profile_id: this.sourceId, message: 'its browser was stopped' });
    for (const follower of this.followers.values()) if (follower.runId === runId) this.lose(follower, 'it was stopped');
  }

  /** A follower stops following; false when it is none. */
  remove(profileId: string): boolean {
    const follower = this.followers.get(profileId);
    if (!follower) return false;
    this.release(follower);
    this.followers.delete(profileId);
    if (this.followers.size === 0) this.close();
    return true;
  }

  status(): SynchronizerStatus {
    return {
      running: this.running,
      source_id: this.sourceId,
      follower_ids: [...this.followers.keys()],
      mode: this.mode,
      options: this.options,
      tabs: [...this.tabs.values()].map((tab) => ({
        source_target_id: tab.targetId,
        url: tab.url,
        followers: [...this.followers.values()].map((f) => ({
          profile_id: f.profileId,
          target_id: f.tabs.get(tab.targetId)?.targetId ?? null,
        })),
      })),
      events: [...this.followers.values()].map((f) => ({
        profile_id: f.profileId,
        alive: f.alive,
        captured: f.captured,
        replayed: f.replayed,
        missed: f.missed,
        dropped: f.dropped,
        last_event_at: f.lastEventAt,
      })),
      error: this.error,
    };
  }

  private end(error: Omit<NonNullable<SynchronizerStatus['error']>, 'at'>): void {
    this.error = { ...error, at: Date.now() };
    this.close();
  }

  private release(follower: Follower): void {
    follower.unlisten();
    if (!follower.alive) return;
    for (const tab of follower.tabs.values())
      follower.relay.call('Target.detachFromTarget', { sessionId: tab.sessionId }).catch(() => {});
    follower.relay.call('Target.setDiscoverTargets', { discover: false }).catch(() => {});
  }

  /** A follower's browser is gone: it is named in the error, its events are dropped from now on. */
  private lose(follower: Follower, reason: string): void {
    if (!follower.alive || !this.running) return;
    follower.alive = false;
    this.error = {
      code: 'synchronizer.follower_lost',
      message: `the follower's browser is gone: ${reason}`,
      profile_id: follower.profileId,
      at: Date.now(),
    };
  }

  private async pages(relay: DevtoolsRelay): Promise<TargetInfo[]> {
    const { targetInfos } = await relay.call<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    return targetInfos.filter((target) => target.type === 'page' && !target.url.startsWith('devtools://'));
  }

  /** LPA's own session on a source tab, with the capture in its current document and each next one. */
  private async capture(tab: SourceTab): Promise<void> {
    const { sessionId } = await this.source.call<{ sessionId: string }>('Target.attachToTarget', {
      targetId: tab.targetId,
      flatten: true,
    });
    tab.sessionId = sessionId;
    await this.source.call('Page.enable', {}, sessionId);
    await this.install(tab);
  }

  /** The capture in the tab's current document, in the synchronizer's isolated world, its binding bound to that world alone. */
  private async install(tab: SourceTab): Promise<void> {
    const sessionId = tab.sessionId!;
    const { executionContextId } = await this.source.call<{ executionContextId: number }>(
      'Page.createIsolatedWorld',
      { frameId: tab.targetId, worldName: SYNC_WORLD, grantUniveralAccess: false },
      sessionId,
    );
    await this.source.call('Runtime.addBinding', { name: this.binding, executionContextId }, sessionId);
    await this.source.call(
      'Runtime.evaluate',
      { contextId: executionContextId, expression: captureScript(this.binding, this.options) },
      sessionId,
    );
  }

  private tabOfSession(sessionId: string | undefined): SourceTab | undefined {
    for (const tab of this.tabs.values()) if (tab.sessionId === sessionId) return tab;
    return undefined;
  }

  private fromSource({ method, params, sessionId }: DevtoolsEvent): void {
    if (!this.running) return;
    if (method === 'Runtime.bindingCalled' && params.name === this.binding) {
      const tab = this.tabOfSession(sessionId);
      let payload: unknown;
      try {
        payload = JSON.parse(String(params.payload));
      } catch {
        return;
      }
      const event = Captured.safeParse(payload);
      if (tab && event.success) this.dispatch(tab.targetId, event.data);
    } else if (method === 'Page.frameNavigated') {
      const frame = params.frame as { id: string; parentId?: string; url: string };
      const tab = this.tabOfSession(sessionId);
      if (!tab || frame.parentId) return;
      tab.url = frame.url;
      void this.navigated(tab).catch(() => {});
    } else if (method === 'Target.targetCreated' && this.options.tabs) {
      const info = params.targetInfo as TargetInfo;
      if (info.type !== 'page' || this.tabs.has(info.targetId)) return;
      const tab: SourceTab = { targetId: info.targetId, sessionId: null, url: info.url };
      this.tabs.set(tab.targetId, tab);
      this.dispatch(tab.targetId, { kind: 'open', opener: info.openerId ?? null });
      void this.capture(tab).catch(() => {});
    } else if (method === 'Target.targetInfoChanged') {
      const info = params.targetInfo as TargetInfo;
      const tab = this.tabs.get(info.targetId);
      if (tab) tab.url = info.url;
    } else if (method === 'Target.targetDestroyed') {
      const targetId = params.targetId as string;
      if (!this.tabs.has(targetId)) return;
      if (this.options.tabs) this.dispatch(targetId, { kind: 'close' });
      this.tabs.delete(targetId);
    }
  }

  /** A new document in a source tab: the capture goes into it, and an address-bar navigation is mirrored. */
  private async navigated(tab: SourceTab): Promise<void> {
    await this.install(tab);
    if (!this.options.navigation) return;
    const history = await this.source.call<{
      currentIndex: number;
      entries: { id: number; url: string; transitionType: string }[];
    }>('Page.getNavigationHistory', {}, tab.sessionId!);
    const entry = history.entries[history.currentIndex];
    if (!entry) return;
    const previous = tab.history;
    const ids = history.entries.map((item) => item.id);
    tab.history = { ids, index: history.currentIndex };
    // The same entries with another one current: back or forward, which keeps the entry's first
    // transition (a link's, say); a new navigation would have made an entry of its own.
    if (previous && previous.index !== history.currentIndex && previous.ids.join() === ids.join()) {
      this.dispatch(tab.targetId, { kind: 'history', delta: history.currentIndex - previous.index });
      return;
    }
    const typed = TYPED_TRANSITIONS.has(entry.transitionType);
    // A click's navigation is no event of its own, unless a follower's tab for it is new (or about to be).
    const fresh = [...this.followers.values()].some((f) => f.tabs.get(tab.targetId)?.fresh ?? true);
    if (typed || fresh)
      this.dispatch(
        tab.targetId,
        { kind: 'navigate', url: entry.url, reload: entry.transitionType === 'reload' },
        typed,
      );
  }

  private fromFollower(follower: Follower, { method, params }: DevtoolsEvent): void {
    if (method === 'Target.targetCreated') {
      const info = params.targetInfo as TargetInfo;
      if (info.type !== 'page' || !info.openerId) return;
      follower.opened.push({ targetId: info.targetId, openerId: info.openerId });
      // Only a tab opened since a recent mirrored click can be its; older ones are the follower's own.
      follower.opened.splice(0, Math.max(0, follower.opened.length - OPENED_KEPT));
    }
  }

  /**
   * An event to every live follower, in its queue: replayed once its delay (drawn within `delay_ms`,
   * counted from the capture) has passed. `always` false: a navigation only a fresh tab needs.
   */
  private dispatch(sourceTab: string, event: SyncEvent, always = true): void {
    const captured = Date.now();
    for (const follower of this.followers.values()) {
      follower.captured++;
      if (!follower.alive || follower.pending >= MAX_PENDING) {
        follower.dropped++;
        continue;
      }
      const { min, max } = this.options.delay_ms;
      const due = captured + min + Math.floor(Math.random() * (max - min + 1));
      follower.pending++;
      follower.queue = follower.queue.then(async () => {
        try {
          await sleep(due - Date.now());
          if (!follower.alive || !this.running || !this.followers.has(follower.profileId)) {
            follower.dropped++;
            return;
          }
          const done = await this.replay(follower, sourceTab, event, always);
          if (done) {
            follower.replayed++;
            follower.lastEventAt = Date.now();
          } else
            this.miss(
              follower,
              event.kind === 'history'
                ? "the follower's tab has no history entry that far back or forward"
                : `no element matches on the follower (${event.kind})`,
            );
        } catch (error) {
          if (!follower.alive) follower.dropped++;
          else this.miss(follower, `the follower's browser refused the ${event.kind}: ${(error as Error).message}`);
        } finally {
          follower.pending--;
        }
      });
    }
  }

  private miss(follower: Follower, message: string): void {
    follower.missed++;
    this.error = { code: 'synchronizer.element_missing', message, profile_id: follower.profileId, at: Date.now() };
  }

  /** One event on one follower; false when its element is not there. */
  private async replay(follower: Follower, sourceTab: string, event: SyncEvent, always: boolean): Promise<boolean> {
    if (event.kind === 'open') {
      follower.tabs.set(sourceTab, await this.openFor(follower, event.opener ? follower.tabs.get(event.opener) : null));
      return true;
    }
    const tab = follower.tabs.get(sourceTab);
    if (!tab) return false;
    const call = <T>(method: string, params: Record<string, unknown> = {}) =>
      follower.relay.call<T>(method, params, tab.sessionId);
    switch (event.kind) {
      case 'close':
        follower.tabs.delete(sourceTab);
        await follower.relay.call('Target.closeTarget', { targetId: tab.targetId });
        return true;
      case 'navigate':
        if (!always && !tab.fresh) return true;
        tab.fresh = false;
        if (event.reload) await call('Page.reload');
        else await call('Page.navigate', { url: event.url, transitionType: 'typed' });
        return true;
      case 'history': {
        const { currentIndex, entries } = await call<{ currentIndex: number; entries: { id: number }[] }>(
          'Page.getNavigationHistory',
        );
        const entry = entries[currentIndex + event.delta];
        if (!entry) return false;
        tab.fresh = false;
        await call('Page.navigateToHistoryEntry', { entryId: entry.id });
        return true;
      }
      case 'scroll':
        await this.evaluate(follower, tab, scrollScript(event, this.mode === 'element'));
        return true;
      case 'click': {
        tab.fresh = false;
        const point =
          this.mode === 'element' && event.target
            ? await this.evaluate<{ x: number; y: number } | null>(follower, tab, resolveScript(event.target, 'point'))
            : { x: event.x, y: event.y };
        if (!point) return false;
        const at = { x: point.x, y: point.y, button: 'left', clickCount: event.count };
        await call('Input.dispatchMouseEvent', { type: 'mouseMoved', x: point.x, y: point.y });
        await call('Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...at });
        await call('Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...at });
        return true;
      }
      case 'key':
      case 'text': {
        if (this.mode === 'element' && event.target) {
          const focused = await this.evaluate(follower, tab, resolveScript(event.target, 'focus'));
          if (!focused) return false;
        }
        if (event.kind === 'text') await call('Input.insertText', { text: event.text });
        else {
          const key = {
            key: event.key,
            code: event.code,
            windowsVirtualKeyCode: event.keyCode,
            modifiers: event.modifiers,
          };
          // Enter types a carriage return: what submits a form.
          const down = event.key === 'Enter' ? { type: 'keyDown', text: '\r' } : { type: 'rawKeyDown' };
          await call('Input.dispatchKeyEvent', { ...down, ...key });
          await call('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
        }
        return true;
      }
    }
  }

  /** An expression in the follower tab's isolated world (the page cannot see it); its value. */
  private async evaluate<T>(follower: Follower, tab: FollowerTab, expression: string): Promise<T> {
    const { executionContextId } = await follower.relay.call<{ executionContextId: number }>(
      'Page.createIsolatedWorld',
      { frameId: tab.targetId, worldName: SYNC_WORLD, grantUniveralAccess: false },
      tab.sessionId,
    );
    const { result, exceptionDetails } = await follower.relay.call<{
      result: { value?: T };
      exceptionDetails?: { text: string };
    }>('Runtime.evaluate', { contextId: executionContextId, expression, returnByValue: true }, tab.sessionId);
    if (exceptionDetails) throw new Error(exceptionDetails.text);
    return result.value as T;
  }

  /**
   * The follower's tab for a new source tab: the one its own page opened from the tab mirroring the
   * opener (the mirrored click opened it), or else a new one.
   */
  private async openFor(follower: Follower, opener: FollowerTab | null | undefined): Promise<FollowerTab> {
    if (opener) {
      const until = Date.now() + OPENED_WAIT_MS;
      while (Date.now() < until) {
        const at = follower.opened.findIndex((opened) => opened.openerId === opener.targetId);
        if (at !== -1) {
          const [own] = follower.opened.splice(at, 1);
          return this.attach(follower, own!.targetId, false);
        }
        await sleep(50);
      }
    }
    const { targetId } = await follower.relay.call<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    return this.attach(follower, targetId, true);
  }

  private async attach(follower: Follower, targetId: string, fresh: boolean): Promise<FollowerTab> {
    const { sessionId } = await follower.relay.call<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    await follower.relay.call('Page.enable', {}, sessionId);
    return { targetId, sessionId, fresh };
  }

  /** The followers' windows at the source's size; a browser that refuses (some headless ones) keeps its own. */
  private async copyWindowSize(sourceTarget: string): Promise<void> {
    const { bounds } = await this.source
      .call<{ bounds: { width?: number; height?: number } }>('Browser.getWindowForTarget', { targetId: sourceTarget })
      .catch(() => ({ bounds: {} as { width?: number; height?: number } }));
    if (!bounds.width || !bounds.height) return;
    await Promise.all(
      [...this.followers.values()]
        .map(async (follower) => {
          const tab = follower.tabs.get(sourceTarget);
          if (!tab) return;
          const { windowId } = await follower.relay.call<{ windowId: number }>('Browser.getWindowForTarget', {
            targetId: tab.targetId,
          });
          await follower.relay.call('Browser.setWindowBounds', {
            windowId,
            bounds: { width: bounds.width, height: bounds.height },
          });
        })
        .map((done) => done.catch(() => {})),
    );
  }
}

/**
 * The host's synchronizer: at most one session at a time, over the live runs' browsers (their relays,
 * from BrowserRuns). Its state lives here alone; the store asks it through the host port.
 */
export class Synchronizer {
  private session: SyncSession | null = null;
  private sourceRunId: string | null = null;
  private opening = false;

  constructor(private readonly relayOf: (runId: string) => DevtoolsRelay | null) {}

  async start(launch: SyncLaunch): Promise<SyncStartResult> {
    if (this.opening || this.session?.running) return { ok: false, reason: 'running', profile_id: null, error: null };
    const members = [launch.source, ...launch.followers].map((member) => ({
      ...member,
      relay: this.relayOf(member.run_id),
    }));
    const gone = members.find((member) => member.relay === null);
    if (gone)
      return { ok: false, reason: 'run_gone', profile_id: gone.profile_id, error: 'its browser is not running' };
    const [source, ...followers] = members as { profile_id: string; run_id: string; relay: DevtoolsRelay }[];
    const session = new SyncSession(
      source!.profile_id,
      source!.relay,
      followers.map((f) => ({ profileId: f.profile_id, relay: f.relay, runId: f.run_id })),
      launch.mode,
      launch.options,
    );
    this.opening = true;
    try {
      await session.open();
    } catch (error) {
      session.close();
      return { ok: false, reason: 'run_gone', profile_id: source!.profile_id, error: (error as Error).message };
    } finally {
      this.opening = false;
    }
    this.session = session;
    this.sourceRunId = launch.source.run_id;
    return { ok: true, status: session.status() };
  }

  /** A run's browser is about to be closed by LPA. */
  ending(runId: string): void {
    if (this.session?.running) this.session.ending(runId, this.sourceRunId!);
  }

  stop(): SynchronizerStatus | null {
    if (!this.session?.running) return null;
    this.session.close();
    return this.session.status();
  }

  remove(profileId: string): SynchronizerStatus | null {
    if (!this.session?.running || !this.session.remove(profileId)) return null;
    return this.session.status();
  }

  status(): SynchronizerStatus {
    return this.session?.status() ?? IDLE_SYNCHRONIZER;
  }
}
