// An independent verifier of a JSONL audit export, written from docs/audit-format.md and docs/audit-threat-model.md alone:
// node:crypto and nothing of LPA. With the public key it accepts only what the key signed. Returns the
// first bad seq (or day, for an anchor; or `head`, for the end), or null when everything verifies.
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

export function independentVerify(jsonl, pem, checkpoint) {
  const rows = jsonl
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text));
  const head = rows.at(-1)?.head;
  if (!head) return { head: 'missing' };
  const { signature: headSignature, refused: _r, ...headFields } = head;
  if (head.key_id !== keyIdOf(pem) || !signed(headFields, headSignature, pem)) return { head: 'signature' };
  const lines = rows.slice(0, -1);
  const hashes = new Map();
  let prev = null;
  for (const { hash, prev_hash, anchor, ...line } of lines) {
    const { category, v, ...spec } = line;
    const hashed = v === undefined || v === 1 ? spec : line;
    if (prev !== null && line.seq !== prev.seq + 1) return { seq: prev.seq + 1 };
    if ((v === undefined || v === 1) && line.seq >= head.key_start_seq) return { seq: line.seq };
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
