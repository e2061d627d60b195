import type { DevtoolsPipe } from './devtools-pipe';

interface DevtoolsMessage {
  id?: number;
  sessionId?: string;
  method?: string;
  params?: { sessionId?: string };
  result?: unknown;
  error?: { code: number; message: string };
}

/** How Chromium ends a message of a session: this, the session id, `"}`. */
const SESSION_AT_END = ',"sessionId":"';
const SESSION_ID = /^[A-Za-z0-9]{1,64}$/;

/**
 * A client's WebSocket as each server hands it over (a `ws` socket in the launcher, Bun's
 * ServerWebSocket, Deno's WebSocket): all the relay does with it is send texts and close it.
 */
export interface ClientSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** What the server tells the relay of a client it attached: each text message it sent, then its close. */
export interface ClientEvents {
  message(text: string): void;
  closed(): void;
}

/** A DevTools client on a run's endpoint: its own session on the browser, and the sessions it attached from there. */
interface Client {
  socket: ClientSocket;
  session: string;
  owned: Set<string>;
}

/** An event of one of LPA's own sessions (the root one or one it attached), as the browser sent it. */
export interface DevtoolsEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

/** LPA's own listener on a run's browser (the synchronizer's): the events of LPA's sessions, then the browser's end. */
export interface RelayListener {
  event(event: DevtoolsEvent): void;
  closed(reason: Error): void;
}

/** What a client connects to: the browser, or one page (a target id), as Chromium's own `/devtools/page/<id>` does. */
export type RelayTarget = { browser: true } | { targetId: string };

/**
 * Many DevTools clients over the one pipe of a run: each client gets a session of its own on the
 * browser (`Target.attachToBrowserTarget`, or `Target.attachToTarget` for a page), its messages sent
 * on that session and the answers and events of that session (and of the sessions it attached from
 * it) handed back to it alone, with its own message ids untouched. LPA's own calls (the start's
 * version check, a clean close, a screenshot) use the root session and sessions it attaches itself.
 */
export class DevtoolsRelay {
  private nextId = 1;
  private readonly calls = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  /** Clients by their own session. */
  private readonly clients = new Map<string, Client>();
  /** Clients by the sessions they attached from theirs. */
  private readonly owners = new Map<string, Client>();
  private readonly listeners = new Set<RelayListener>();
  private pipe: DevtoolsPipe | null = null;
  private closedWith: Error | null = null;

  connect(pipe: DevtoolsPipe): void {
    this.pipe = pipe;
  }

  /** LPA's own call; `sessionId` one of LPA's own sessions. */
  call<T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.pipe!.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Hands `listener` the events of LPA's own sessions until the browser is gone or the returned function is called. */
  listen(listener: RelayListener): () => void {
    if (this.closedWith) {
      listener.closed(this.closedWith);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A message from the browser: to the client whose session it is on, else to LPA's own calls. */
  receive(text: string): void {
    if (this.passedOn(text)) return;
    let message: DevtoolsMessage;
    try {
      message = JSON.parse(text) as DevtoolsMessage;
    } catch {
      return;
    }
    const { sessionId } = message;
    const root = sessionId === undefined ? undefined : this.clients.get(sessionId);
    const client = root ?? (sessionId === undefined ? undefined : this.owners.get(sessionId));
    if (!client) {
      if (message.id === undefined) {
        if (message.method) for (const listener of this.listeners) listener.event(message as DevtoolsEvent);
        return;
      }
      const call = this.calls.get(message.id);
      if (!call) return;
      this.calls.delete(message.id);
      if (message.error) call.reject(new Error(`${message.error.message} (${message.error.code})`));
      else call.resolve(message.result);
      return;
    }
    const child = message.params?.sessionId;
    if (message.method === 'Target.attachedToTarget' && child) {
      client.owned.add(child);
      this.owners.set(child, client);
    } else if (message.method === 'Target.detachedFromTarget' && child) {
      client.owned.delete(child);
      this.owners.delete(child);
    }
    if (root) {
      // The client asked without a session: it sees its answers without one, as on Chromium's own endpoint.
      delete message.sessionId;
      client.socket.send(JSON.stringify(message));
    } else client.socket.send(text);
  }

  /**
   * Most of what the browser sends is an answer or event of a client's session, which Chromium
   * writes with `,"sessionId":"<id>"}` at its end. Such a message is handed on read from that end,
   * without parsing and writing the JSON again (a tenth of the relay's CPU per round trip). An
   * attach or detach of a client's session, and anything of LPA's own, is read whole.
   * The browser's JSON is valid, so a `,"` there is never inside a string, and what follows the last
   * `,"sessionId":"` up to a closing `"}` is the top-level session, if it is letters and digits.
   */
  private passedOn(text: string): boolean {
    if (!text.endsWith('"}') || text.startsWith('{"method":"Target.')) return false;
    const at = text.lastIndexOf(SESSION_AT_END);
    if (at === -1) return false;
    const sessionId = text.slice(at + SESSION_AT_END.length, -2);
    if (!SESSION_ID.test(sessionId)) return false;
    const root = this.clients.get(sessionId);
    const client = root ?? this.owners.get(sessionId);
    if (!client) return false;
    // The client asked without a session: it sees its answers without one, as on Chromium's own endpoint.
    client.socket.send(root ? `${text.slice(0, at)}}` : text);
    return true;
  }

  /**
   * Takes a client's WebSocket: its session made first, its messages relayed until either side
   * closes. A client may send before its session exists (right after the upgrade), so its messages
   * are held until then, never dropped. A browser that refuses the session closes the socket.
   */
  attach(socket: ClientSocket, target: RelayTarget): ClientEvents {
    const held: string[] = [];
    let client: Client | null = null;
    let closed = false;
    const session =
      'browser' in target
        ? this.call<{ sessionId: string }>('Target.attachToBrowserTarget')
        : this.call<{ sessionId: string }>('Target.attachToTarget', { targetId: target.targetId, flatten: true });
    session.then(
      ({ sessionId }) => {
        if (closed) {
          this.call('Target.detachFromTarget', { sessionId }).catch(() => {});
          return;
        }
        client = { socket, session: sessionId, owned: new Set() };
        this.clients.set(sessionId, client);
        for (const text of held.splice(0)) this.fromClient(client, text);
      },
      () => socket.close(1011, 'the browser did not take the session'),
    );
    return {
      message: (text) => {
        if (client) this.fromClient(client, text);
        else held.push(text);
      },
      closed: () => {
        closed = true;
        if (!client) return;
        this.clients.delete(client.session);
        for (const owned of client.owned) this.owners.delete(owned);
        if (!this.closedWith) this.call('Target.detachFromTarget', { sessionId: client.session }).catch(() => {});
      },
    };
  }

  /** A client's message, sent on its session (or on one it attached from there). */
  private fromClient(client: Client, text: string): void {
    let message: DevtoolsMessage | null = null;
    try {
      message = JSON.parse(text) as DevtoolsMessage;
    } catch {}
    // Valid JSON that is no object (`null`, `[]`, `2`) is no message either: reading its session from
    // `null` would throw in the socket's handler and end the launcher with every browser.
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      client.socket.close(1003, 'not a DevTools message');
      return;
    }
    if (message.sessionId === undefined) message.sessionId = client.session;
    else if (!client.owned.has(message.sessionId)) {
      client.socket.send(
        JSON.stringify({ id: message.id, error: { code: -32001, message: 'Session with given id not found.' } }),
      );
      return;
    }
    this.pipe!.send(JSON.stringify(message));
  }

  /** The browser is gone: every call fails, every client is closed. */
  close(reason: Error): void {
    this.closedWith = reason;
    for (const call of this.calls.values()) call.reject(reason);
    this.calls.clear();
    for (const client of this.clients.values()) client.socket.close(1011, 'the browser has exited');
    this.clients.clear();
    this.owners.clear();
    for (const listener of this.listeners) listener.closed(reason);
    this.listeners.clear();
  }
}
