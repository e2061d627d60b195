import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the service wrote to its `api` log: bytes, lines by client address, and the drops it reported. */
export function apiLogTotals(dataRoot: string): {
  bytes: number;
  linesByIp: Map<string, number>;
  reportedDrops: number;
} {
  const folder = join(dataRoot, 'logs', 'api');
  let text = '';
  for (const name of readdirSync(folder)) text += readFileSync(join(folder, name), 'utf8');
  const linesByIp = new Map<string, number>();
  let reportedDrops = 0;
  for (const line of text.split('\n')) {
    const ip = / ip=(\S+)/.exec(line)?.[1];
    if (ip) linesByIp.set(ip, (linesByIp.get(ip) ?? 0) + 1);
    // The gate's WARN line after a window in which it dropped lines (src/pipeline/api-log-gate.ts).
    if (line.includes('api log lines of unknown clients dropped'))
      reportedDrops += Number(/count=(\d+)/.exec(line)?.[1] ?? 0);
  }
  return { bytes: Buffer.byteLength(text), linesByIp, reportedDrops };
}
