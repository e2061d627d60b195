import { exportHeader, exportLine } from '../storage/audit/export-format';
import type { AuditFilters } from '../storage/audit/filters';
import type { AuditExport, ExportFormat } from '../storage/audit/schema';
import type { StoreClient } from '../storage/dispatch';
import { ApiError } from '../src/errors/api-error';
import { Base64Builder } from '../src/shared/base64';

/** The largest export served in one response; beyond either bound the answer is a 413 with the count. */
export const MAX_EXPORT_ENTRIES = 50_000;
export const MAX_EXPORT_BYTES = 16 * 1024 * 1024;
/** Entries fetched per store call: well inside the Durable Object RPC message limit. */
const PAGE = 1000;

/**
 * Builds the export file oldest entry first (the order the chain verifies in), fetching it from the
 * store page by page and encoding each page as it arrives.
 */
export async function buildExport(store: StoreClient, filters: AuditFilters, format: ExportFormat, now: number): Promise<AuditExport> {
  const total = await store.audit.count(filters);
  const tooLarge = (count: number) =>
    new ApiError('audit.export_too_large', { count, max_entries: MAX_EXPORT_ENTRIES, max_bytes: MAX_EXPORT_BYTES });
  if (total > MAX_EXPORT_ENTRIES) throw tooLarge(total);
  const encoder = new TextEncoder();
  const content = new Base64Builder();
  content.push(encoder.encode(exportHeader(format)));
  let count = 0;
  for (let after = 0; ; ) {
    const page = await store.audit.list(filters, { after_seq: after }, PAGE);
    count += page.items.length;
    content.push(encoder.encode(page.items.map((record) => exportLine(format, record)).join('')));
    if (count > MAX_EXPORT_ENTRIES || content.bytes > MAX_EXPORT_BYTES) throw tooLarge(Math.max(total, count));
    if (page.next_seq === null) break;
    after = page.next_seq;
  }
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return { file_name: `lpa-audit-${stamp}.${format}`, count, content_base64: content.finish() };
}
