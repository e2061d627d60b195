import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fromBase64, toBase64 } from '../../../shared/base64';
import {
  BUNDLE_MAX_PARTS,
  BUNDLE_PART_BYTES,
  type BundleFetch,
  type BundlePacked,
  type BundleSend,
  type BundleUnpacked,
} from '../../../shared/schemas/bundle';
import { utf8Bytes, utf8Text } from '../../../shared/unicode';
import type { HostPort } from '../../port';
import { loadWhenUsed } from '../load-when-used';

/*
 * A team profile's folder as it travels (docs/teams.md#what-travels): a gzipped tar of what the
 * browser cannot make again, cut into parts, each part AES-256-GCM under the profile's bundle key
 * with its profile, fencing number, index and whether it is the last in its associated data: a part
 * moved, dropped, cut short or taken from another profile or version does not open.
 */

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The plaintext of one part: a whole part with its nonce and tag is BUNDLE_PART_BYTES. */
const PLAIN_BYTES = BUNDLE_PART_BYTES - NONCE_BYTES - TAG_BYTES;
/** Parts on their way to or from the team at once: the round trips overlap, and memory stays a few MiB. */
const PARTS_IN_FLIGHT = 4;
/** What a bundle may unpack to, whatever it was compressed to: a bound on a bundle made to fill the disk. */
const UNPACKED_MAX_BYTES = 8 * 1024 * 1024 * 1024;

/**
 * What Chromium makes again by itself (caches, crash reports, downloaded components, metrics): not
 * packed. Everything else of the folder is: cookies, local storage, IndexedDB, `Preferences` and
 * `Secure Preferences`, saved logins, extensions and `Local State`.
 */
const NOT_PACKED = new Set([
  'Cache',
  'Code Cache',
  'GPUCache',
  'DawnCache',
  'DawnGraphiteCache',
  'DawnWebGPUCache',
  'GrShaderCache',
  'GraphiteDawnCache',
  'ShaderCache',
  'CacheStorage',
  'ScriptCache',
  'Crashpad',
  'Crash Reports',
  'component_crx_cache',
  'extensions_crx_cache',
  'Safe Browsing',
  'OptimizationHints',
  'optimization_guide_model_store',
  'segmentation_platform',
  'BrowserMetrics',
  'DeferredBrowserMetrics',
  'DevToolsActivePort',
]);

type Forward = HostPort['team']['forward'];

/** The file beside a profile's folder that names the version the folder holds: a start on the same machine fetches nothing. */
const markerOf = (folder: string) => `${folder}.bundle`;

const partAad = (profileId: string, fencing: number, index: number, last: boolean) =>
  utf8Bytes(`lpa profile bundle v1\n${profileId}\n${fencing}\n${index}\n${last ? 'last' : 'more'}`);

/**
 * One bundle part sent to or read from the team (`PUT`/`GET …/bundle/parts/{n}`) through the team
 * link: the parsed JSON of a 2xx, or why not, as data that the pack's or unpack's result carries
 * back to the worker. Not the worker's `askTeam` (handlers/team-runs.ts), which calls a declared
 * team route, checks its answer against the route's schema and throws the team's refusals as this
 * machine's errors.
 */
async function partCall(
  forward: Forward,
  method: 'GET' | 'PUT',
  target: string,
  body?: unknown,
): Promise<{ ok: true; json: unknown } | { ok: false; code: string | null; error: string }> {
  const answer = await forward({
    method,
    target,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : utf8Bytes(JSON.stringify(body)),
  });
  if (!answer.reachable) return { ok: false, code: 'team.unreachable', error: answer.reason };
  let json: unknown = null;
  try {
    json = JSON.parse(utf8Text(answer.body));
  } catch {
    // kept null: the status says the rest
  }
  if (answer.status >= 200 && answer.status < 300) return { ok: true, json };
  const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return {
    ok: false,
    code: typeof error?.code === 'string' ? error.code.slice(0, 64) : null,
    error: `the team answered ${answer.status}${typeof error?.message === 'string' ? `: ${error.message.slice(0, 300)}` : ''}`,
  };
}

/**
 * Packs the profile's folder and sends it to the team part by part, a few parts in flight, under the
 * run's lease. The parts' hash and size go into the commit, which the worker sends
 * (handlers/team-runs.ts); the folder's marker names what was sent, so this machine's next start
 * fetches nothing if it is kept.
 */
export async function packBundle(
  folder: string,
  profileId: string,
  send: BundleSend,
  forward: Forward,
): Promise<BundlePacked> {
  if (!existsSync(folder)) return { ok: false, code: null, error: 'the profile has no browser folder on this machine' };
  const hash = createHash('sha256');
  let size = 0;
  let parts = 0;
  let refused: Extract<BundlePacked, { ok: false }> | null = null;
  const inFlight = new Set<Promise<void>>();
  const path = `/api/v1/runs/${encodeURIComponent(profileId)}/bundle/parts/`;
  /** Seals the next part and starts its upload; waits while PARTS_IN_FLIGHT are on their way. */
  const sendPart = async (plain: Buffer, last: boolean): Promise<void> => {
    const index = parts++;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', send.key, nonce).setAAD(partAad(profileId, send.fencing, index, last));
    const part = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    size += part.length;
    if (size > send.max_bytes || index >= BUNDLE_MAX_PARTS) {
      refused ??= { ok: false, code: 'bundle.too_large', error: `the packed folder passed ${send.max_bytes} bytes` };
      return;
    }
    hash.update(part);
    const upload = partCall(forward, 'PUT', `${path}${index}`, {
      run_id: send.run_id,
      fencing: send.fencing,
      data: toBase64(part),
    }).then(
      (sent) => {
        if (!sent.ok) refused ??= sent;
      },
      (error: unknown) => {
        refused ??= { ok: false, code: null, error: String(error).slice(0, 300) };
      },
    );
    inFlight.add(upload);
    void upload.then(() => inFlight.delete(upload));
    if (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
  };
  const tar = loadWhenUsed('tar') as typeof import('tar');
  const packed = tar.c(
    {
      cwd: folder,
      gzip: true,
      portable: true,
      // Plain files and folders only: Chromium's Singleton* symbolic links name this machine's process.
      filter: (path, stat) =>
        !path.split('/').some((name) => NOT_PACKED.has(name)) &&
        'isFile' in stat &&
        (stat.isFile() || stat.isDirectory()),
    },
    ['.'],
  );
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of packed as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    // A part is sent once more bytes follow it: only then is it known not to be the last.
    while (pendingBytes > PLAIN_BYTES && !refused) {
      const joined = Buffer.concat(pending, pendingBytes);
      await sendPart(joined.subarray(0, PLAIN_BYTES), false);
      pending = [joined.subarray(PLAIN_BYTES)];
      pendingBytes -= PLAIN_BYTES;
    }
    if (refused) break;
  }
  if (!refused) await sendPart(Buffer.concat(pending, pendingBytes), true);
  await Promise.all(inFlight);
  if (refused) return refused;
  const sha256 = hash.digest('hex');
  writeFileSync(markerOf(folder), sha256, { mode: 0o600 });
  return { ok: true, parts, size, sha256 };
}

/**
 * Fetches the team's version of the profile's folder and puts it in place of this machine's: unpacked
 * beside it first, and swapped in only once every part opened and the whole matched the team's hash
 * and size. A folder that already holds that version (its marker) is left as it is.
 */
export async function unpackBundle(
  folder: string,
  profileId: string,
  fetch: BundleFetch,
  forward: Forward,
): Promise<BundleUnpacked> {
  const { bundle } = fetch;
  const marker = markerOf(folder);
  if (existsSync(folder) && existsSync(marker) && readFileSync(marker, 'utf8') === bundle.sha256)
    return { ok: true, fetched: false };
  const incoming = join(dirname(folder), `.incoming-${basename(folder)}-${randomBytes(6).toString('hex')}`);
  mkdirSync(incoming, { recursive: true, mode: 0o700 });
  try {
    await fetchInto(incoming, profileId, fetch, forward);
  } catch (error) {
    await rm(incoming, { recursive: true, force: true });
    return { ok: false, error: (error as Error).message.slice(0, 1000) };
  }
  // The marker goes first: a folder half swapped (the service killed in between) is fetched again.
  rmSync(marker, { force: true });
  const replaced = `${incoming}-replaced`;
  if (existsSync(folder)) renameSync(folder, replaced);
  renameSync(incoming, folder);
  // Without blocking: the folder it replaces may hold thousands of files, and the host serves meanwhile.
  await rm(replaced, { recursive: true, force: true });
  writeFileSync(marker, bundle.sha256, { mode: 0o600 });
  return { ok: true, fetched: true };
}

/**
 * Every part fetched, opened and checked into one file beside `into`, then unpacked from it: nothing
 * is unpacked before the whole version has proved to be the team's, whole and in order.
 */
async function fetchInto(into: string, profileId: string, { run_id, key, bundle }: BundleFetch, forward: Forward) {
  const file = `${into}.tgz`;
  const handle = await open(file, 'wx', 0o600);
  try {
    // Closed before tar reads the file, and once whatever happens.
    try {
      const hash = createHash('sha256');
      let size = 0;
      const path = `/api/v1/runs/${encodeURIComponent(profileId)}/bundle/parts/`;
      // A few parts are fetched ahead of the one being opened; each is opened and written in order.
      const fetchPart = (index: number) =>
        partCall(forward, 'GET', `${path}${index}?run_id=${run_id}`).catch((error: unknown) => ({
          ok: false as const,
          code: null,
          error: String(error).slice(0, 300),
        }));
      const ahead = new Map<number, ReturnType<typeof fetchPart>>();
      for (let index = 0; index < Math.min(PARTS_IN_FLIGHT, bundle.parts); index++) ahead.set(index, fetchPart(index));
      for (let index = 0; index < bundle.parts; index++) {
        const answer = await ahead.get(index)!;
        ahead.delete(index);
        if (index + PARTS_IN_FLIGHT < bundle.parts)
          ahead.set(index + PARTS_IN_FLIGHT, fetchPart(index + PARTS_IN_FLIGHT));
        if (!answer.ok) throw new Error(`part ${index} of the team's version: ${answer.error}`);
        const data = (answer.json as { data?: unknown } | null)?.data;
        if (typeof data !== 'string') throw new Error(`part ${index} of the team's version came without its data`);
        const part = Buffer.from(fromBase64(data));
        hash.update(part);
        size += part.length;
        if (part.length < NONCE_BYTES + TAG_BYTES) throw new Error(`part ${index} is cut short`);
        const decipher = createDecipheriv('aes-256-gcm', key, part.subarray(0, NONCE_BYTES))
          .setAAD(partAad(profileId, bundle.fencing, index, index === bundle.parts - 1))
          .setAuthTag(part.subarray(part.length - TAG_BYTES));
        try {
          await handle.write(
            Buffer.concat([decipher.update(part.subarray(NONCE_BYTES, part.length - TAG_BYTES)), decipher.final()]),
          );
        } catch {
          throw new Error(`part ${index} does not open with the profile's key: altered, moved or of another version`);
        }
      }
      if (size !== bundle.size || hash.digest('hex') !== bundle.sha256)
        throw new Error("the parts do not add up to the team's recorded size and hash");
    } finally {
      await handle.close();
    }
    let unpacked = 0;
    const tar = loadWhenUsed('tar') as typeof import('tar');
    await tar.x({
      file,
      cwd: into,
      strict: true,
      // Plain files and folders only, inside `into` (tar refuses `..` and absolute paths itself).
      filter: (_, entry) => {
        if (!('type' in entry) || (entry.type !== 'File' && entry.type !== 'Directory')) return false;
        unpacked += entry.size ?? 0;
        return unpacked <= UNPACKED_MAX_BYTES;
      },
    });
    if (unpacked > UNPACKED_MAX_BYTES) throw new Error('the bundle unpacks to more than 8 GiB');
  } finally {
    rmSync(file, { force: true });
  }
}
