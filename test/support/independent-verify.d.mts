export function independentVerify(
  jsonl: string,
  pem: string,
  checkpoint?: Record<string, unknown> & { seq: number; hash: string; signature: string },
):
  | { seq: number }
  | { day: string }
  | { line: number }
  | { checkpoint: string }
  | { head: 'missing' | 'signature' | 'range' }
  | null;
