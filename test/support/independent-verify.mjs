// An independent verifier of a JSONL audit export, written from docs/audit-format.md and docs/audit-threat-model.md alone:
// node:crypto and nothing of LPA. With the public key it accepts only what the key signed. Returns the
// first bad seq (or day, for an anchor; `head`, for the end; `line`, for a line not in its form), or
// null when everything verifies.
import { createHash, createPublicKey, verify } from 'node:crypto';

const canon = (v) =>
  v === null || typeof v !== 'object'
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map(canon).join(',')}]`
      : `{${Object.keys(v)
          .filter((k) => v[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canon(v[k])}`)
          .join(',')}}`;
const signed = (value, signature, pem) =>
  typeof signature === 'string' &&
  verify(null, Buffer.from(canon(value), 'utf8'), pem, Buffer.from(signature, 'base64'));
const dayOf = (ts) => new Date(ts).toISOString().slice(0, 10);
// The key id: SHA-256 of the raw 32-byte key, the last 32 bytes of its SPKI DER.
const keyIdOf = (pem) =>
  createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }).subarray(-32))
    .digest('hex');

// "The form of a line": the keys of each kind of line, in order.
const ENTRY_KEYS = [
  'seq',
  'id',
  'ts',
  'actor_type',
  'actor_id',
  'actor_label',
  'source',
  'action',
  'entity_type',
  'entity_id',
  'entity_no',
  'result',
  'error_code',
  'details',
  'request_id',
  'category',
  'v',
  'hash',
  'prev_hash',
];
const ANCHOR_KEYS = ['day', 'store_id', 'signature'];
const HEAD_KEYS = ['first_seq', 'seq', 'hash', 'ts', 'store_id', 'key_id', 'key_start_seq', 'signature', 'refused'];
const HEX64 = /^[0-9a-f]{64}$/;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const hasKeys = (v, keys) => isObject(v) && Object.keys(v).join() === keys.join();
const isInt = (v) => Number.isSafeInteger(v);
const isText = (v) => typeof v === 'string';
const orNull = (test) => (v) => v === null || test(v);

/** Whether an entry line's value holds exactly its keys, in order, each of its type. */
function entryInForm(row) {
  const anchored = Object.hasOwn(row, 'anchor');
  if (!hasKeys(row, anchored ? [...ENTRY_KEYS, 'anchor'] : ENTRY_KEYS)) return false;
  if (anchored && !(hasKeys(row.anchor, ANCHOR_KEYS) && isText(row.anchor.day) && isText(row.anchor.store_id)))
    return false;
  if (anchored && !orNull(isText)(row.anchor.signature)) return false;
  return (
    [row.seq, row.ts, row.v].every(isInt) &&
    orNull(isInt)(row.entity_no) &&
    HEX64.test(row.hash) &&
    (row.prev_hash === null || HEX64.test(row.prev_hash)) &&
    ['ok', 'denied', 'error'].includes(row.result) &&
    [row.id, row.actor_type, row.actor_label, row.source, row.action, row.category].every(isText) &&
    [row.actor_id, row.entity_type, row.entity_id, row.error_code, row.request_id].every(orNull(isText)) &&
    orNull(isObject)(row.details)
  );
}

/** Each line parsed, or null where it is not exactly the text JSON.stringify writes of it with its keys. */
function readLines(jsonl) {
  const texts = jsonl.split('\n');
  if (texts.at(-1) === '') texts.pop();
  return texts.map((text) => {
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
    if (JSON.stringify(value) !== text || !isObject(value)) return null;
    return value;
  });
}

export function independentVerify(jsonl, pem, checkpoint) {
  const rows = readLines(jsonl);
  const last = rows.at(-1);
  const head = last && Object.hasOwn(last, 'head') ? last.head : undefined;
  if (!head) return { head: 'missing' };
  const headInForm =
    hasKeys(last, ['head']) &&
    hasKeys(head, HEAD_KEYS) &&
    [head.ts, head.key_start_seq].every(isInt) &&
    [head.first_seq, head.seq].every(orNull(isInt));
  if (!headInForm) return { line: rows.length };
  const { signature: headSignature, refused: _r, ...headFields } = head;
  if (head.key_id !== keyIdOf(pem) || !signed(headFields, headSignature, pem)) return { head: 'signature' };
  const lines = rows.slice(0, -1);
  const hashes = new Map();
  let prev = null;
  for (const [index, row] of lines.entries()) {
    if (row === null || !entryInForm(row)) return { line: index + 1 };
    const { hash, prev_hash, anchor, ...line } = row;
    const { category, v, ...spec } = line;
    const hashed = v === 1 ? spec : line;
    if (prev !== null && line.seq !== prev.seq + 1) return { seq: prev.seq + 1 };
    if (v === 1 && line.seq >= head.key_start_seq) return { seq: line.seq };
    if (
      createHash('sha256')
        .update(prev_hash + canon(hashed), 'utf8')
        .digest('hex') !== hash
    )
      return { seq: line.seq };
    if (line.seq === 1 ? prev_hash !== '0'.repeat(64) : prev !== null && prev_hash !== prev.hash)
      return { seq: line.seq };
    // The day before this line ended on the previous line: that line must carry the day's signed anchor.
    if (prev !== null && dayOf(line.ts) !== dayOf(prev.ts) && prev.seq >= head.key_start_seq && !prev.sealed)
      return { day: dayOf(prev.ts) };
    if (prev?.anchor && dayOf(line.ts) === dayOf(prev.ts)) return { day: prev.anchor.day };
    const legacy = anchor?.signature === null && line.seq < head.key_start_seq;
    const sealed =
      anchor !== undefined &&
      anchor.day === dayOf(line.ts) &&
      signed({ day: anchor.day, hash, seq: line.seq, store_id: anchor.store_id }, anchor.signature, pem);
    if (anchor && !sealed && !legacy) return { day: anchor.day };
    hashes.set(line.seq, hash);
    prev = { seq: line.seq, hash, ts: line.ts, anchor, sealed };
  }
  if (
    head.first_seq !== (lines[0]?.seq ?? null) ||
    head.seq !== (prev?.seq ?? null) ||
    head.hash !== (prev?.hash ?? null)
  )
    return { head: 'range' };
  if (checkpoint) {
    const { key_id: _k, signature, ...cp } = checkpoint;
    if (!signed(cp, signature, pem)) return { checkpoint: 'signature' };
    if (
      hashes.has(checkpoint.seq)
        ? hashes.get(checkpoint.seq) !== checkpoint.hash
        : lines[0]?.seq !== checkpoint.seq + 1 || lines[0].prev_hash !== checkpoint.hash
    ) {
      return { seq: Math.min(checkpoint.seq, (prev?.seq ?? 0) + 1) };
    }
  }
  return null;
}
