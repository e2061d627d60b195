import { z } from 'zod';
import { LogRecord } from '../shared/logs/line';
import { LogFileEntry, LogStream, WRITTEN_STREAMS } from '../shared/logs/streams';
import { AuditSeal } from '../shared/schemas/audit-seal';
import { Base64Bytes } from '../shared/schemas/base64';
import { CookieImportMode, CookiesRead, CookiesWritten, ShortLaunch } from './cookies-schema';
import { Cookie } from '../shared/cookies/cookie';
import { AutomationFileListing } from './files-schema';
import { PageStep } from '../shared/schemas/flow-steps';
import { ProxyUpstream } from '../shared/schemas/proxy';
import { BundleFetch, BundlePacked, BundleSend, BundleUnpacked } from '../shared/schemas/bundle';
import {
  BrowserFound,
  HostRuns,
  PageStepResult,
  ProxyCheckResult,
  RunEnd,
  RunLaunch,
  RunStartResult,
} from './runs-schema';
import { SynchronizerStatus } from '../shared/schemas/synchronizer';
import { SyncLaunch, SyncStartResult } from './synchronizer-schema';
import { TeamAnswer, TeamRequest } from './team-link-request';

/**
 * Every operation of the host port, declared once: the arguments its method takes (a tuple, in
 * order) and what it resolves with. The port's type (port.ts), its client over a fetcher (port.ts)
 * and its server (node/server.ts) are all derived from this table; on the wire an operation is
 * `POST /<group>/<name>` with its encoded arguments as a JSON array, answered `{ "result": … }`.
 */
export interface HostOperation {
  args: z.ZodTuple;
  result: z.ZodType;
}

const operation = <A extends z.ZodTuple, R extends z.ZodType>(args: A, result: R) =>
  ({ args, result }) satisfies HostOperation;

/** The key files of the data root, `<name>.key`: each 32 random bytes, base64. */
export const KeyName = z.enum(['vault', 'audit', 'audit-signing']);
export type KeyName = z.output<typeof KeyName>;

/** The most a tail read returns; the worker asks for 256 KiB. */
export const MAX_TAIL_BYTES = 1024 * 1024;

/** The end of one log file, as raw bytes; `offset` > 0 means the file holds more before them. */
export const LogTail = z.object({ entry: LogFileEntry, bytes: Base64Bytes, offset: z.int().min(0) });
export type LogTail = z.output<typeof LogTail>;

/** What the host's log cleanup removed, and what it could not. */
export const CleanupResult = z.object({
  removed: z.array(LogFileEntry),
  failed: z.array(z.object({ stream: LogStream, file: z.string(), error: z.string() })),
});
export type CleanupResult = z.output<typeof CleanupResult>;

export const HOST_OPERATIONS = {
  disk: {
    /** Free bytes on the data root's file system, for an unprivileged user. */
    free: operation(z.tuple([]), z.number()),
  },
  keys: {
    /** `read(name, create)`: a key file's bytes; with `create`, made first (256 random bits, mode 0600) when absent; null when absent. */
    read: operation(z.tuple([KeyName, z.boolean()]), Base64Bytes.nullable()),
  },
  files: {
    /** The automation folder (its real path) and the plain files in it. */
    list: operation(z.tuple([]), AutomationFileListing),
    /** `write(name, bytes)`: writes a new file; `exists` when the name is taken, which is never replaced. */
    write: operation(z.tuple([z.string(), Base64Bytes]), z.enum(['created', 'exists'])),
    /** `read(name)`: a file's bytes, or null when there is no such file. */
    read: operation(z.tuple([z.string()]), Base64Bytes.nullable()),
    /** Why the automation folder is refused (a link, or its real path leaves its place in the data root); empty when it is not. */
    problems: operation(z.tuple([]), z.array(z.string())),
  },
  logs: {
    /** `append(stream, records)`: appends lines to the stream's daily files; the host formats them (src/shared/logs/line.ts). */
    append: operation(z.tuple([z.enum(WRITTEN_STREAMS), z.array(LogRecord).max(10_000)]), z.void()),
    list: operation(z.tuple([]), z.array(LogFileEntry)),
    /** `tail(stream, file, maxBytes)`: the last `maxBytes` bytes of a file; null when the stream has no such log file. */
    tail: operation(z.tuple([LogStream, z.string(), z.int().min(1).max(MAX_TAIL_BYTES)]), LogTail.nullable()),
    /**
     * `cleanup(maxAgeDays)`: deletes files last modified more than the given number of days ago, per
     * stream. Age is measured by the host's clock, the one that stamped the modification times.
     */
    cleanup: operation(z.tuple([z.partialRecord(LogStream, z.int().min(1))]), CleanupResult),
    /** Why log folders cannot be written, one sentence each. */
    problems: operation(z.tuple([]), z.array(z.string())),
  },
  /** The team this machine joined (docs/teams.md#a-machine-in-a-team): the host holds its token, the worker never does. */
  team: {
    /** `forward(request)`: one API request to the team, with the team token, the Access service token and the machine id; its answer, or unreachable after 5 s. */
    forward: operation(z.tuple([TeamRequest]), TeamAnswer),
  },
  /**
   * The profiles' browsers (src/host/node/browsers): the host owns the processes and their DevTools
   * endpoints; the store keeps the runs' records. A run's endpoint is served by the host itself at
   * `/devtools/<secret>/…` (under workerd the worker passes those requests through, WebSocket upgrades
   * included; under Bun and Deno the front hands them to the host in process).
   */
  runs: {
    /** The browser a start would use, or why there is none. */
    browser: operation(z.tuple([]), BrowserFound),
    /** `start(launch)`: spawns the browser and resolves once it answers DevTools, or with why it did not. */
    start: operation(z.tuple([RunLaunch]), RunStartResult),
    /** `stop(runId, force)`: closes the browser (killed after a bound, or at once with `force`); how it ended, or null for a run the host never had. */
    stop: operation(z.tuple([z.string(), z.boolean()]), RunEnd.nullable()),
    /** The runs alive, and those that ended within the last day. */
    list: operation(z.tuple([]), HostRuns),
    /** `forget(profileId)`: removes a deleted profile's browser folder (its live browser was stopped first). */
    forget: operation(z.tuple([z.string()]), z.void()),
    /** `checkProxy(proxy, url, timeoutMs)`: fetches `url` through the proxy as a run's browser would (docs/proxies.md). */
    checkProxy: operation(z.tuple([ProxyUpstream, z.string(), z.int().min(1)]), ProxyCheckResult),
    /** `answers(runId)`: whether the run's browser is alive and answers DevTools (`Browser.getVersion`) within 5 s: what keeps a team profile's lease. */
    answers: operation(z.tuple([z.string()]), z.boolean()),
    /** `screenshot(runId)`: a PNG of the run's first page, base64; null when it has none. */
    screenshot: operation(z.tuple([z.string()]), z.string().nullable()),
    /**
     * `step(runId, step)`: one step of a flow on the run's current tab, its values resolved (a secret
     * only as a `type`'s text, which the host neither keeps nor logs); a step that fails is a result.
     */
    step: operation(z.tuple([z.string(), PageStep]), PageStepResult),
    /**
     * `pack(profileId, send)`: a team profile's folder, packed (no caches), encrypted part by part and
     * sent to the team through this machine's team link, once its run has ended (docs/teams.md#what-travels).
     */
    pack: operation(z.tuple([z.string(), BundleSend]), BundlePacked),
    /** `unpack(profileId, fetch)`: the team's version fetched, checked and unpacked in place of the folder, before a start. */
    unpack: operation(z.tuple([z.string(), BundleFetch]), BundleUnpacked),
  },
  /**
   * The team's bucket of its profiles' browser data (a team service only; a machine keeps none): each
   * version's encrypted parts, under the team's prefix.
   */
  bundles: {
    /** `put(name, bytes)`: one part. */
    put: operation(z.tuple([z.string(), Base64Bytes]), z.void()),
    /** `get(name)`: one part; null when there is none. */
    get: operation(z.tuple([z.string()]), Base64Bytes.nullable()),
    /** `remove(folder)`: every part under the folder (a replaced version, a failed upload, a deleted profile). */
    remove: operation(z.tuple([z.string()]), z.void()),
  },
  /**
   * The synchronizer (src/host/node/synchronizer): the host captures the source's input in its pages
   * and replays it on the followers; it alone knows a session's state.
   */
  synchronizer: {
    /** `start(launch)`: attaches to the runs' browsers and starts mirroring. */
    start: operation(z.tuple([SyncLaunch]), SyncStartResult),
    /** Ends the session; its last status, or null when none was running. */
    stop: operation(z.tuple([]), SynchronizerStatus.nullable()),
    /** `remove(profileId)`: that follower stops following; the status, or null when it was no follower of a running session. */
    remove: operation(z.tuple([z.string()]), SynchronizerStatus.nullable()),
    status: operation(z.tuple([]), SynchronizerStatus),
  },
  /**
   * A profile's cookies (docs/cookies.md): through its running browser's DevTools, or a short headless
   * browser on its folder (`ShortLaunch`: the profile's own switches and proxy), never at once with a
   * start of it. With `short` null, the running browser only: `not_running` when there is none.
   */
  cookies: {
    /** `read(profileId, short)`: every cookie of the profile's browser. */
    read: operation(z.tuple([z.string(), ShortLaunch.nullable()]), CookiesRead),
    /** `write(profileId, short, cookies, mode)`: sets the cookies, after removing all the others with `replace`. */
    write: operation(z.tuple([z.string(), ShortLaunch.nullable(), z.array(Cookie), CookieImportMode]), CookiesWritten),
  },
  /** The audit's append-only seal record beside the keys. */
  seals: {
    /** Every line of the seal record, oldest first; a line that is not a seal (a torn last write) is skipped. */
    read: operation(z.tuple([]), z.array(AuditSeal)),
    /** `append(seal)`: appends one seal and fsyncs it; resolves only once it is on disk. */
    append: operation(z.tuple([AuditSeal]), z.void()),
  },
};

export type HostOperations = typeof HOST_OPERATIONS;
export type HostGroup = keyof HostOperations;

const wirePath = (group: string, name: string) => `/${group}/${name}`;

/** The path of one operation on the wire, for tests that speak it raw. */
export const hostPath = <G extends HostGroup>(group: G, name: keyof HostOperations[G] & string): string =>
  wirePath(group, name);

/** Every operation with its group, name and path on the wire: what the client and the server are built from. */
export const HOST_OPERATION_LIST = Object.entries(HOST_OPERATIONS).flatMap(([group, operations]) =>
  Object.entries(operations).map(([name, declared]) => ({
    group: group as HostGroup,
    name,
    path: wirePath(group, name),
    operation: declared as HostOperation,
  })),
);
