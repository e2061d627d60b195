import { push } from '../../contracts/push';
import { team as teamRoutes } from '../../contracts/team-link';
import {
  TRANSFER_KINDS,
  type ImportOutcome,
  type TransferKind,
  type TransferPage,
} from '../../../storage/transfer/schema';
import { ApiCallError, type ApiClient } from '../client';
import { EXIT } from '../exit-codes';
import { show, table } from '../output';
import { whileWaiting } from '../progress';

type Counts = Record<ImportOutcome, number>;

/** What `lpa team push` reports: counts per kind, every conflict with its reason, and what the team's chain records as the source. */
export interface PushReport {
  team: string;
  store_id: string;
  checkpoint: { seq: number; hash: string };
  counts: Record<TransferKind, Counts>;
  conflicts: { kind: TransferKind; id: string; reason: string | null }[];
}

/**
 * Copies this machine's own store (the export of src/contracts/team-link.ts: always the local store) into
 * the team (src/contracts/push.ts), page by page, kind by kind in dependency order: each page read
 * is one import request. The checkpoint of the first page is the source every created item records.
 */
async function copy(local: ApiClient, team: ApiClient): Promise<PushReport> {
  let source: TransferPage['checkpoint'] | null = null;
  const counts = Object.fromEntries(
    TRANSFER_KINDS.map((kind) => [kind, { created: 0, unchanged: 0, conflict: 0 }]),
  ) as Record<TransferKind, Counts>;
  const conflicts: PushReport['conflicts'] = [];
  for (const kind of TRANSFER_KINDS) {
    for (let offset: number | null = 0; offset !== null; ) {
      const page: TransferPage = await local.api(teamRoutes.export, { query: { kind, offset } });
      source ??= page.checkpoint;
      if (page.items.length > 0) {
        const answer = await team.api(push.import, { body: { source, items: page.items } });
        for (const item of answer.items) {
          counts[kind][item.result] += 1;
          if (item.result === 'conflict') conflicts.push({ kind, id: item.id, reason: item.reason });
        }
      }
      offset = page.next_offset;
    }
  }
  return {
    team: team.baseUrl,
    store_id: source!.store_id,
    checkpoint: { seq: source!.seq, hash: source!.hash },
    counts,
    conflicts,
  };
}

function human(report: PushReport): string {
  const rows = TRANSFER_KINDS.map((kind) => ({ kind, ...report.counts[kind] }));
  const lines = [
    `pushed store ${report.store_id} (checkpoint seq ${report.checkpoint.seq}) to ${report.team}`,
    table(rows, ['kind', 'created', 'unchanged', 'conflict']),
  ];
  if (report.conflicts.length > 0) {
    lines.push(
      `${report.conflicts.length} conflict(s), left as the team has them:`,
      table(report.conflicts, ['kind', 'id', 'reason']),
    );
  }
  return lines.join('\n');
}

/** `lpa team push`: a conflict is exit 8 (as a 409), after the whole store was tried. */
export async function teamPush(local: ApiClient, team: ApiClient, json: boolean | undefined): Promise<void> {
  const report = await whileWaiting(`pushing this machine's store to ${team.baseUrl}`, copy(local, team)).catch(
    (error: unknown) => {
      // The team's refusal names no way out: a machine that keeps a narrower team token day to day has one.
      if (error instanceof ApiCallError && error.code === 'auth.admin_required')
        throw new ApiCallError(
          error.status,
          error.code,
          `${error.message} The team token the push used is not an admin token: pass one for this push alone with --admin-token-file <file> (- reads it from standard input).`,
          error.details,
          error.requestId,
        );
      throw error;
    },
  );
  show(report, json, human);
  if (report.conflicts.length > 0) process.exitCode = EXIT.conflict;
}
