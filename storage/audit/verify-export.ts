import { chainHash, GENESIS_HASH } from './chain';
import type { AuditEntry, ExportVerification } from './schema';

interface Line {
  seq: number;
  hash: string;
  prev_hash: string | null;
  entry: AuditEntry;
}

function parseLine(text: string): Line | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const { hash, prev_hash, ...entry } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(entry.seq)) return 'seq is not an integer';
  if (typeof hash !== 'string') return 'hash is missing';
  if (prev_hash !== null && typeof prev_hash !== 'string') return 'prev_hash is missing';
  return { seq: entry.seq as number, hash, prev_hash, entry: entry as unknown as AuditEntry };
}

/**
 * Verifies a JSONL audit export offline: every line's hash is SHA-256 over its prev_hash and its
 * canonical entry; consecutive seqs link (prev_hash equals the previous line's hash); seqs ascend;
 * seq 1 links to the genesis hash. This is the check the README describes, with the same code the
 * store hashes with.
 */
export function verifyJsonlExport(text: string): ExportVerification {
  const result: ExportVerification = {
    ok: true, checked: 0, first_bad_seq: null, first_bad_line: null, reason: null, first_seq: null, last_seq: null, gaps: 0,
  };
  const fail = (lineNo: number, seq: number | null, reason: string) => {
    if (!result.ok) return;
    Object.assign(result, { ok: false, first_bad_seq: seq, first_bad_line: lineNo, reason });
  };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let previous: Line | null = null;
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
    if (previous && line.seq <= previous.seq) fail(lineNo, line.seq, 'seq does not ascend');
    else if (line.prev_hash === null) fail(lineNo, line.seq, 'the entry before it was missing from the store');
    else if (chainHash(line.prev_hash, line.entry) !== line.hash) fail(lineNo, line.seq, 'hash does not match the entry');
    else if (line.seq === 1 && line.prev_hash !== GENESIS_HASH) fail(lineNo, line.seq, 'seq 1 does not link to the genesis hash');
    else if (previous && line.seq === previous.seq + 1 && line.prev_hash !== previous.hash) fail(lineNo, line.seq, 'prev_hash is not the previous hash');
    if (previous && line.seq > previous.seq + 1) result.gaps += 1;
    previous = line;
  }
  return result;
}
