import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from './api-client';
import { commandLine, killTree } from './process-tree';
import { startService, type RunningService } from './service';

/** Crash rounds; CRASH_ROUNDS asks for more on a longer local run. */
const ROUNDS = Number(process.env.CRASH_ROUNDS) || 3;
const WRITERS = 8;
/** Each round kills the service only after this many acknowledged writes, so the kill is mid-stream. */
const ACKS_BEFORE_KILL = 40;
/** Every tenth write is large enough to be stored in several chunk rows. */
const LARGE_VALUE_CHARS = 600_000;

interface Writer {
  name: string;
  /** The last acknowledged write: the store must hold at least this. */
  acked: { revision: number; value: string } | null;
  /** A write whose answer never came: it may or may not have been committed. */
  unanswered: string | null;
  /** Every acknowledged revision over all rounds; each must have its audit entry. */
  ackedRevisions: number[];
}

const valueFor = (writer: Writer, revision: number) => {
  const head = `${writer.name}:${revision}:${randomUUID()}`;
  return revision % 10 === 0 ? head.padEnd(LARGE_VALUE_CHARS, 'x') : head;
};

/** Writes one global at its own revisions until the connection dies; records what was acknowledged. */
async function writeUntilKilled(
  api: ApiClient,
  writer: Writer,
  killed: () => boolean,
  onAck: () => void,
): Promise<void> {
  for (;;) {
    const expected = writer.acked?.revision ?? 0;
    const value = valueFor(writer, expected + 1);
    writer.unanswered = value;
    let answer;
    try {
      answer = await api(`/api/v1/automation/globals/${writer.name}`, {
        method: 'PUT',
        body: { value, expected_revision: expected },
      });
    } catch (error) {
      if (killed()) return;
      throw error;
    }
    if (answer.status !== 200)
      throw new Error(`${writer.name}: PUT answered ${answer.status} ${JSON.stringify(answer.json)}`);
    expect(answer.json.revision).toBe(expected + 1);
    writer.acked = { revision: answer.json.revision, value };
    writer.unanswered = null;
    writer.ackedRevisions.push(answer.json.revision);
    onAck();
  }
}

/** After a restart: the global holds the acknowledged write, or the one write whose answer was lost. */
async function checkSurvived(api: ApiClient, writer: Writer): Promise<void> {
  const read = await api(`/api/v1/automation/globals/${writer.name}`);
  const found = read.status === 200 ? (read.json as { value: string; revision: number }) : null;
  if (!found) {
    expect(read.status, `${writer.name}: ${JSON.stringify(read.json)}`).toBe(404);
    expect(writer.acked, `${writer.name} lost acknowledged revision ${writer.acked?.revision}`).toBeNull();
  } else if (found.revision === (writer.acked?.revision ?? 0)) {
    expect(found.value === writer.acked!.value, `${writer.name} rev ${found.revision} holds another value`).toBe(true);
  } else {
    // Only one write per writer is ever in flight, so the store can be at most one ahead.
    expect(found.revision, `${writer.name}: acked ${writer.acked?.revision}`).toBe((writer.acked?.revision ?? 0) + 1);
    expect(found.value === writer.unanswered, `${writer.name} rev ${found.revision} is not the unanswered write`).toBe(
      true,
    );
    writer.ackedRevisions.push(found.revision);
  }
  writer.acked = found && { revision: found.revision, value: found.value };
  writer.unanswered = null;
}

/** The revisions that the audit log records as written for one global. */
async function auditedRevisions(api: ApiClient, name: string): Promise<Set<number>> {
  const out = new Set<number>();
  let before = '';
  for (;;) {
    const page = await api(`/api/v1/audit?action=globals.write&result=ok&entity_id=${name}&limit=1000${before}`);
    expect(page.status).toBe(200);
    for (const item of page.json.items) out.add(item.details.revision);
    if (page.json.next_before_seq === null) return out;
    before = `&before_seq=${page.json.next_before_seq}`;
  }
}

/** Kills the launcher and everything under it, and removes the run folder that it had no chance to. */
async function crash(service: RunningService): Promise<void> {
  const tree = await killTree(service.process.pid!);
  for (const pid of tree) {
    const config = commandLine(pid).find((arg) => arg.endsWith('config.capnp'));
    if (config) rmSync(dirname(config), { recursive: true, force: true });
  }
  expect(tree.length).toBeGreaterThanOrEqual(2);
}

describe('a SIGKILL of the whole service mid-write', () => {
  let service: RunningService | undefined;
  afterAll(async () => {
    if (!service) return;
    await crash(service);
    rmSync(service.dataRoot, { recursive: true, force: true });
  });

  it('loses no acknowledged write and leaves an audit chain that verifies', {
    timeout: 60_000 + ROUNDS * 30_000,
  }, async () => {
    const writers: Writer[] = Array.from({ length: WRITERS }, (_, i) => ({
      name: `crash_w${i}_${randomUUID().slice(0, 8)}`,
      acked: null,
      unanswered: null,
      ackedRevisions: [],
    }));
    service = await startService('workerd');
    const dataRoot = service.dataRoot;
    for (let round = 0; round < ROUNDS; round++) {
      const api = apiClient(service.port, service.token);
      let acks = 0;
      let killed = false;
      let reachedKillPoint!: () => void;
      const killPoint = new Promise<void>((resolve) => (reachedKillPoint = resolve));
      const writing = Promise.all(
        writers.map((w) =>
          writeUntilKilled(
            api,
            w,
            () => killed,
            () => ++acks >= ACKS_BEFORE_KILL && reachedKillPoint(),
          ),
        ),
      );
      await Promise.race([killPoint, writing.then(() => Promise.reject(new Error('writers stopped before the kill')))]);
      // A random moment past the kill point, so the kill lands anywhere in a write.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 200));
      killed = true;
      await crash(service);
      await writing;

      service = await startService('workerd', dataRoot);
      const after = apiClient(service.port, service.token);
      for (const writer of writers) await checkSurvived(after, writer);
      const verify = await after('/api/v1/audit/verify');
      expect(verify.json, `round ${round}`).toMatchObject({ ok: true, first_bad_seq: null });
    }
    const api = apiClient(service.port, service.token);
    for (const writer of writers) {
      expect(writer.ackedRevisions.length).toBeGreaterThan(0);
      const audited = await auditedRevisions(api, writer.name);
      expect(
        writer.ackedRevisions.filter((r) => !audited.has(r)),
        `${writer.name}: acknowledged writes without their audit entry`,
      ).toEqual([]);
    }
  });
});
