/** The pieces one after another in one array; `length`, when the caller counted it, saves a pass. */
export function concatBytes(
  pieces: readonly Uint8Array[],
  length = pieces.reduce((n, piece) => n + piece.byteLength, 0),
): Uint8Array {
  const all = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.byteLength;
  }
  return all;
}
