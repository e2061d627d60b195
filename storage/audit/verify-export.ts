import type { z } from 'zod';
import { categoryOf } from './actions';
import { anchorSigned } from './anchors';
import { chainHash, GENESIS_HASH, type StoredEntry } from './chain';
import { dayIndex, dayName } from './days';
import { headSigned } from './export-head';
import {
  AuditRecord,
  ExportHead,
  ExportHeadLine,
  type AnchorProof,
  type AuditCheckpoint,
  type ExportVerification,
} from './schema';
import { keyId, publicKeyFromPem, signatureValid } from './signing';

interface Line {
  seq: number;
  ts: number;
  hash: string;
  prev_hash: string | null;
  anchor: AnchorProof | null;
  entry: StoredEntry;
}

/** A line read, and with the key, why it is not the store's own text of it (a misformed line is still checked on). */
type Read = (Line | { head: ExportHead }) & { misformed?: string };

/** A line that is an object but not an entry: the head that ends an export (`{"head": …}`). */
function parseHead(value: Record<string, unknown>): { head: ExportHead } | string {
  const head = ExportHead.safeParse(value.head);
  return head.success ? { head: head.data } : 'the head line is not a head';
}

function parseEntry(value: Record<string, unknown>): Line | string {
  const { hash, prev_hash, anchor, ...entry } = value;
  if (!Number.isSafeInteger(entry.seq)) return 'seq is not an integer';
  if (!Number.isSafeInteger(entry.ts)) return 'ts is not an integer';
  if (typeof hash !== 'string') return 'hash is missing';
  if (prev_hash !== null && typeof prev_hash !== 'string') return 'prev_hash is missing';
  // Exports from before canonical form 2 carry neither `v` nor `category`: their lines are form 1.
  const stored = { ...entry, v: entry.v ?? 1 } as unknown as StoredEntry;
  return {
    seq: stored.seq,
    ts: stored.ts,
    hash,
    prev_hash,
    anchor: (anchor as AnchorProof | undefined) ?? null,
    entry: stored,
  };
}

/**
 * Why a line is not byte for byte the text the store writes for what it reads as
 * (docs/audit-format.md#the-form-of-a-line), or null. Read by its strict schema (exactly the keys
 * the store writes, each of its type) and written again as the store writes it, it must give the
 * same text: so no key twice (a reader that takes the first would see a value the store never
 * wrote), no key the store does not write, no white space and no other spelling of a number or a
 * string, the keys in the store's order. What the key accepts is then read the same by every reader.
 */
function misformed(text: string, value: object): string | null {
  const line = ('head' in value ? ExportHeadLine : AuditRecord).safeParse(value);
  if (!line.success) {
    const [{ path, message }] = line.error.issues as [z.core.$ZodIssue];
    return `the line is not one the store writes (${path.length ? `${path.join('.')}: ` : ''}${message})`;
  }
  return JSON.stringify(line.data) === text
    ? null
    : 'the line is not written as the store writes it (a key twice or out of order, white space, or a value spelt otherwise)';
}

/** One line of the file; `exact` (with the key) holds it to the store's own text. */
function parseLine(text: string, exact: boolean): Read | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const read =
    'head' in value ? parseHead(value as Record<string, unknown>) : parseEntry(value as Record<string, unknown>);
  const why = exact ? misformed(text, value) : null;
  if (typeof read === 'string') return why ?? read;
  return why === null ? read : { ...read, misformed: why };
}

/** What the offline check is given besides the file: the public key (SPKI PEM) and a checkpoint saved earlier. */
export interface ExportProofs {
  publicKeyPem?: string | null;
  checkpoint?: AuditCheckpoint | null;
}

/** What a checkpoint's signature covers: canonical({hash, seq, store_id, ts}). */
export const checkpointSigned = (c: AuditCheckpoint) => ({ hash: c.hash, seq: c.seq, store_id: c.store_id, ts: c.ts });

type Fail = (lineNo: number | null, seq: number | null, reason: string) => void;

/**
 * An export's bytes as text: UTF-8 or nothing (bytes that are not would read otherwise to another
 * reader), a byte-order mark kept, so that it is refused as any byte the store did not write.
 */
const EXPORT_TEXT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Verifies a JSONL audit export offline, as docs/audit-format.md and docs/audit-threat-model.md
 * describe and with the store's own code: every line's hash over its prev_hash and its canonical entry (form 1 or 2, by
 * its `v`); consecutive seqs link; seqs ascend; seq 1 links to genesis; a form 1 line's category is
 * its action's, and no form 1 line follows a form 2 one.
 *
 * With the public key it accepts only what the key signed: every line must be the store's own text of
 * what it reads as (docs/audit-format.md#the-form-of-a-line), and the file must end with the head the store
 * signed over its first and last entry (so nothing was added, cut or made up), with no seq missing in
 * between (so no link goes unchecked); from the head's key start on no line may be form 1 and every
 * day that ends inside the file must end on a line carrying that day's anchor with a valid signature
 * (before the key start an unsigned anchor is the store's past). An export without a signed head (one
 * made before heads, or cut) is not accepted. With a checkpoint: its signature, and that the file
 * holds its seq with its hash, or starts right after it, linked to its hash; a file that ends before
 * it has lost its tail.
 */
export function verifyJsonlExport(file: string | Uint8Array, proofs: ExportProofs = {}): ExportVerification {
  const publicKey = proofs.publicKeyPem ? publicKeyFromPem(proofs.publicKeyPem) : null;
  const result: ExportVerification = {
    ok: true,
    checked: 0,
    first_bad_seq: null,
    first_bad_line: null,
    reason: null,
    first_seq: null,
    last_seq: null,
    gaps: 0,
    anchors: publicKey ? 0 : null,
    missing_anchor: null,
    checkpoint_seq: proofs.checkpoint?.seq ?? null,
    signed_head: publicKey ? false : null,
  };
  const fail: Fail = (lineNo, seq, reason) => {
    if (result.reason !== null) return;
    Object.assign(result, { first_bad_seq: seq, first_bad_line: lineNo, reason });
  };
  if (proofs.publicKeyPem && !publicKey) fail(null, null, 'the public key is not an Ed25519 public key in SPKI PEM');
  let text = '';
  try {
    text = typeof file === 'string' ? file : EXPORT_TEXT.decode(file);
  } catch {
    fail(null, null, 'the file is not UTF-8');
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  // Without the key a CRLF file still checks; with it a line is the store's text, which ends at `\n`.
  const parsed = lines.map((raw) => (publicKey ? parseLine(raw, true) : parseLine(raw.replace(/\r$/, ''), false)));
  const last = parsed.at(-1);
  const head = last !== undefined && typeof last === 'object' && 'head' in last ? last : null;
  if (head) parsed.pop();
  // Without a head (or before the key was given) nothing says where the key starts: nothing unsigned passes.
  const keyStart = head?.head.key_start_seq ?? 1;
  const unsealed = new Set<number>();
  let previous: Line | null = null;
  let sawForm2 = false;
  const bySeq = new Map<number, Line>();
  for (const [index, line] of parsed.entries()) {
    const lineNo = index + 1;
    if (typeof line === 'string' || 'head' in line) {
      fail(lineNo, null, typeof line === 'string' ? line : 'a head line before the last line');
      continue;
    }
    if (line.misformed) fail(lineNo, line.seq, line.misformed);
    result.checked += 1;
    result.first_seq ??= line.seq;
    result.last_seq = line.seq;
    bySeq.set(line.seq, line);
    const contiguous = previous !== null && line.seq === previous.seq + 1;
    const form1 = line.entry.v === 1;
    if (previous && line.seq <= previous.seq) fail(lineNo, line.seq, 'seq does not ascend');
    else if (line.prev_hash === null) fail(lineNo, line.seq, 'the entry before it was missing from the store');
    else if (form1 && sawForm2) fail(lineNo, line.seq, 'a form 1 entry follows a form 2 entry');
    else if (form1 && publicKey && line.seq >= keyStart)
      fail(lineNo, line.seq, 'a form 1 entry at or after the key start');
    else if (form1 && line.entry.category !== undefined && line.entry.category !== categoryOf(line.entry.action)) {
      fail(lineNo, line.seq, 'category is not the one its action files under');
    } else if (chainHash(line.prev_hash, line.entry) !== line.hash)
      fail(lineNo, line.seq, 'hash does not match the entry');
    else if (line.seq === 1 && line.prev_hash !== GENESIS_HASH)
      fail(lineNo, line.seq, 'seq 1 does not link to the genesis hash');
    else if (contiguous && line.prev_hash !== previous!.hash)
      fail(lineNo, line.seq, 'prev_hash is not the previous hash');
    if (previous && line.seq > previous.seq + 1) {
      result.gaps += 1;
      // Across a gap no link is checked: with the key nothing unchecked is accepted.
      if (publicKey)
        fail(
          lineNo,
          previous.seq + 1,
          'seqs jump: entries are missing (an export filtered other than by time cannot be proven)',
        );
    }
    sawForm2 ||= !form1;
    if (publicKey) {
      const day = dayIndex(line.ts);
      // The previous line ended a day that this line shows finished: it must carry that day's anchor.
      if (previous && day > dayIndex(previous.ts) && previous.anchor === null && previous.seq >= keyStart)
        unsealed.add(dayIndex(previous.ts));
      // An anchor must seal its line's own day, and no later line of the same day may follow it.
      if (previous?.anchor && day === dayIndex(previous.ts)) unsealed.add(dayIndex(Date.parse(previous.anchor.day)));
      if (line.anchor !== null) {
        const anchorDay = dayIndex(Date.parse(line.anchor.day));
        const legacy = line.anchor.signature === null && line.seq < keyStart;
        const anchor = { day: line.anchor.day, seq: line.seq, hash: line.hash };
        const valid =
          line.anchor.day === dayName(day) &&
          signatureValid(publicKey, anchorSigned(anchor, line.anchor.store_id), line.anchor.signature);
        if (valid) result.anchors! += 1;
        else if (!legacy) unsealed.add(Number.isNaN(anchorDay) ? day : anchorDay);
      }
    }
    previous = line;
  }
  if (unsealed.size > 0) result.missing_anchor = dayName(Math.min(...unsealed));
  if (publicKey) checkHead(head, lines.length, publicKey, previous, result, fail);
  if (proofs.checkpoint) checkCheckpoint(proofs.checkpoint, publicKey, bySeq, result, fail);
  result.ok = result.reason === null && result.missing_anchor === null;
  return result;
}

/** Whether the file ends with the head the key signed over its first and last entry. */
function checkHead(
  line: { head: ExportHead; misformed?: string } | null,
  lineNo: number,
  publicKey: Uint8Array,
  last: Line | null,
  result: ExportVerification,
  fail: Fail,
): void {
  if (line === null) {
    fail(
      null,
      null,
      'the export does not end with a signed head: its end is not proven (an export made before signed heads, or one cut short)',
    );
    return;
  }
  // A head line with more in it than the store wrote is not the store's head, whatever its signature covers.
  if (line.misformed) {
    fail(lineNo, null, line.misformed);
    return;
  }
  const { head } = line;
  if (head.signature === null) {
    fail(null, null, `the store did not sign the head: ${head.refused ?? 'no reason given'}`);
    return;
  }
  if (head.key_id !== keyId(publicKey) || !signatureValid(publicKey, headSigned(head), head.signature)) {
    fail(null, null, 'the head signature does not verify with the public key');
    return;
  }
  result.signed_head = true;
  if (head.first_seq !== result.first_seq || head.seq !== result.last_seq || head.hash !== (last?.hash ?? null)) {
    fail(
      null,
      head.seq === result.last_seq ? head.first_seq : (result.last_seq ?? 0) + 1,
      'the file does not begin and end where its signed head says',
    );
  }
}

/** Whether the file reaches the checkpoint, or extends consistently from it. */
function checkCheckpoint(
  checkpoint: AuditCheckpoint,
  publicKey: Uint8Array | null,
  bySeq: Map<number, Line>,
  result: ExportVerification,
  fail: Fail,
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
    if (at.hash !== checkpoint.hash)
      fail(null, checkpoint.seq, 'the entry at the checkpoint seq does not have its hash');
  } else if (
    checkpoint.seq === 0 ? checkpoint.hash !== GENESIS_HASH : !after || result.first_seq !== checkpoint.seq + 1
  ) {
    fail(null, checkpoint.seq, 'the export neither holds the checkpoint seq nor starts right after it');
  } else if (after && after.prev_hash !== checkpoint.hash) {
    fail(null, checkpoint.seq + 1, 'the export does not extend from the checkpoint hash');
  }
}
