import { categoryOf } from './actions';
import { anchorSigned } from './anchors';
import { chainHash, GENESIS_HASH, type StoredEntry } from './chain';
import { dayIndex, dayName } from './days';
import type { AnchorProof, AuditCheckpoint, ExportVerification } from './schema';
import { publicKeyFromPem, signatureValid } from './signing';

interface Line {
  seq: number;
  ts: number;
  hash: string;
  prev_hash: string | null;
  anchor: AnchorProof | null;
  entry: StoredEntry;
}

function parseLine(text: string): Line | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const { hash, prev_hash, anchor, ...entry } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(entry.seq)) return 'seq is not an integer';
  if (!Number.isSafeInteger(entry.ts)) return 'ts is not an integer';
  if (typeof hash !== 'string') return 'hash is missing';
  if (prev_hash !== null && typeof prev_hash !== 'string') return 'prev_hash is missing';
  // Exports from before canonical form 2 carry neither `v` nor `category`: their lines are form 1.
  const stored = { ...entry, v: entry.v ?? 1 } as unknown as StoredEntry;
  return { seq: stored.seq, ts: stored.ts, hash, prev_hash, anchor: (anchor as AnchorProof | undefined) ?? null, entry: stored };
}

/** What the offline check is given besides the file: the public key (SPKI PEM) and a checkpoint saved earlier. */
export interface ExportProofs {
  publicKeyPem?: string | null;
  checkpoint?: AuditCheckpoint | null;
}

/** What a checkpoint's signature covers: canonical({hash, seq, store_id, ts}). */
export const checkpointSigned = (c: AuditCheckpoint) => ({ hash: c.hash, seq: c.seq, store_id: c.store_id, ts: c.ts });

/**
 * Verifies a JSONL audit export offline, as docs/audit-format.md describes and with the store's own code:
 * every line's hash over its prev_hash and its canonical entry (form 1 or 2, by its `v`);
 * consecutive seqs link; seqs ascend; seq 1 links to genesis; no form 1 line follows a form 2 one
 * and a form 1 line's category is its action's. With the public key: every anchor's signature, that
 * an anchor is on the last line of its day, and that every day the file shows finished (a later
 * day's line follows it without a gap) from the first form 2 day on has one (`missing_anchor`).
 * With a checkpoint: its signature, and that the file holds its seq with its hash, or starts right
 * after it, linked to its hash; a file that ends before it has lost its tail.
 */
export function verifyJsonlExport(text: string, proofs: ExportProofs = {}): ExportVerification {
  const publicKey = proofs.publicKeyPem ? publicKeyFromPem(proofs.publicKeyPem) : null;
  const result: ExportVerification = {
    ok: true, checked: 0, first_bad_seq: null, first_bad_line: null, reason: null, first_seq: null, last_seq: null, gaps: 0,
    anchors: publicKey ? 0 : null, missing_anchor: null, checkpoint_seq: proofs.checkpoint?.seq ?? null,
  };
  const fail = (lineNo: number | null, seq: number | null, reason: string) => {
    if (result.reason !== null) return;
    Object.assign(result, { first_bad_seq: seq, first_bad_line: lineNo, reason });
  };
  if (proofs.publicKeyPem && !publicKey) fail(null, null, 'the public key is not an Ed25519 public key in SPKI PEM');
  const unsealed = new Set<number>();
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let previous: Line | null = null;
  let switchDay: number | null = null;
  const bySeq = new Map<number, Line>();
  for (const [index, raw] of lines.entries()) {
    const lineNo = index + 1;
    const line = parseLine(raw.replace(/\r$/, ''));
    if (typeof line === 'string') {
      fail(lineNo, null, line);
      continue;
    }
    result.checked += 1;
    result.first_seq ??= line.seq;
    result.last_seq = line.seq;
    bySeq.set(line.seq, line);
    const contiguous = previous !== null && line.seq === previous.seq + 1;
    if (previous && line.seq <= previous.seq) fail(lineNo, line.seq, 'seq does not ascend');
    else if (line.prev_hash === null) fail(lineNo, line.seq, 'the entry before it was missing from the store');
    else if (line.entry.v === 1 && switchDay !== null) fail(lineNo, line.seq, 'a form 1 entry follows a form 2 entry');
    else if (line.entry.v === 1 && line.entry.category !== undefined && line.entry.category !== categoryOf(line.entry.action)) {
      fail(lineNo, line.seq, 'category is not the one its action files under');
    } else if (chainHash(line.prev_hash, line.entry) !== line.hash) fail(lineNo, line.seq, 'hash does not match the entry');
    else if (line.seq === 1 && line.prev_hash !== GENESIS_HASH) fail(lineNo, line.seq, 'seq 1 does not link to the genesis hash');
    else if (contiguous && line.prev_hash !== previous!.hash) fail(lineNo, line.seq, 'prev_hash is not the previous hash');
    if (previous && line.seq > previous.seq + 1) result.gaps += 1;
    if (switchDay === null && line.entry.v !== 1) switchDay = dayIndex(line.ts);
    if (publicKey) {
      const day = dayIndex(line.ts);
      // The previous line ended a day that this line shows finished: it must carry that day's anchor.
      if (contiguous && day > dayIndex(previous!.ts) && previous!.anchor === null && switchDay !== null && dayIndex(previous!.ts) >= switchDay) {
        unsealed.add(dayIndex(previous!.ts));
      }
      // An anchor must seal its line's own day, and no later line of the same day may follow it.
      if (contiguous && previous!.anchor !== null && day === dayIndex(previous!.ts)) unsealed.add(dayIndex(Date.parse(previous!.anchor.day)));
      if (line.anchor !== null) {
        const anchorDay = dayIndex(Date.parse(line.anchor.day));
        const legacy = line.anchor.signature === null && (switchDay === null || anchorDay < switchDay);
        const anchor = { day: line.anchor.day, seq: line.seq, hash: line.hash };
        const valid = line.anchor.day === dayName(day) && signatureValid(publicKey, anchorSigned(anchor, line.anchor.store_id), line.anchor.signature);
        if (valid) result.anchors! += 1;
        else if (!legacy) unsealed.add(Number.isNaN(anchorDay) ? day : anchorDay);
      }
    }
    previous = line;
  }
  if (unsealed.size > 0) result.missing_anchor = dayName(Math.min(...unsealed));
  if (proofs.checkpoint) checkCheckpoint(proofs.checkpoint, publicKey, bySeq, result, fail);
  result.ok = result.reason === null && result.missing_anchor === null;
  return result;
}

/** Whether the file reaches the checkpoint, or extends consistently from it. */
function checkCheckpoint(
  checkpoint: AuditCheckpoint,
  publicKey: Uint8Array | null,
  bySeq: Map<number, Line>,
  result: ExportVerification,
  fail: (lineNo: number | null, seq: number | null, reason: string) => void,
): void {
  if (!signatureValid(publicKey, checkpointSigned(checkpoint), checkpoint.signature)) {
    fail(null, null, 'the checkpoint signature does not verify with the public key');
    return;
  }
  const at = bySeq.get(checkpoint.seq);
  const after = bySeq.get(checkpoint.seq + 1);
  if (result.last_seq === null || result.last_seq < checkpoint.seq) {
    fail(null, (result.last_seq ?? 0) + 1, 'the export ends before the checkpoint: entries it vouches for are missing');
  } else if (at) {
    if (at.hash !== checkpoint.hash) fail(null, checkpoint.seq, 'the entry at the checkpoint seq does not have its hash');
  } else if (checkpoint.seq === 0 ? checkpoint.hash !== GENESIS_HASH : !after || result.first_seq !== checkpoint.seq + 1) {
    fail(null, checkpoint.seq, 'the export neither holds the checkpoint seq nor starts right after it');
  } else if (after && after.prev_hash !== checkpoint.hash) {
    fail(null, checkpoint.seq + 1, 'the export does not extend from the checkpoint hash');
  }
}
