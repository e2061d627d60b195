// An independent verifier of a JSONL audit export, written from docs/audit-format.md alone: node:crypto and
// nothing of LPA. Returns the first bad seq (or day, for an anchor), or null when everything verifies.
import { createHash, verify } from 'node:crypto';

const canon = (v) => v === null || typeof v !== 'object' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(canon).join(',')}]`
  : `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
const signed = (value, signature, pem) => verify(null, Buffer.from(canon(value), 'utf8'), pem, Buffer.from(signature ?? '', 'base64'));

export function independentVerify(jsonl, pem, checkpoint) {
  const hashes = new Map();
  let prev = null;
  for (const text of jsonl.split('\n').filter(Boolean)) {
    const { hash, prev_hash, anchor, ...line } = JSON.parse(text);
    const { category, v, ...spec } = line;
    const hashed = v === 1 ? spec : line;
    if (createHash('sha256').update(prev_hash + canon(hashed), 'utf8').digest('hex') !== hash) return { seq: line.seq };
    if (prev !== null && line.seq === prev.seq + 1 && prev_hash !== prev.hash) return { seq: line.seq };
    if (anchor && !signed({ day: anchor.day, hash, seq: line.seq, store_id: anchor.store_id }, anchor.signature, pem)) return { day: anchor.day };
    hashes.set(line.seq, hash);
    prev = { seq: line.seq, hash };
  }
  if (checkpoint) {
    const { key_id: _k, signature, ...head } = checkpoint;
    if (!signed(head, signature, pem)) return { checkpoint: 'signature' };
    if (hashes.get(checkpoint.seq) !== checkpoint.hash) return { seq: Math.min(checkpoint.seq, (prev?.seq ?? 0) + 1) };
  }
  return null;
}
