import { exportHeader, exportLine, exportTail } from '../storage/audit/export-format';
import type { AuditFilters } from '../storage/audit/filters';
import type { AuditExport, ExportFormat } from '../storage/audit/schema';
import type { StoreClient } from '../storage/client';
import type { RequestContext } from './context';
import { ApiError } from '../src/shared/errors/api-error';
import { Base64Chunks } from '../src/shared/base64';
import { Capacity } from '../src/shared/capacity';
import { perStore } from '../src/shared/store-memory';
import { JsonBody } from '../src/shared/json-body';
import { utf8Length } from '../src/shared/unicode';

/** The largest export served in one response; beyond either bound the answer is a 413 with the count. */
export const MAX_EXPORT_ENTRIES = 50_000;
export const MAX_EXPORT_BYTES = 16 * 1024 * 1024;
/** Exports this isolate runs at once; one more answers 429 `audit.export_busy`. */
export const MAX_CONCURRENT_EXPORTS = 2;
/** What a refused export is told to wait: about what an export of the largest size takes. */
export const EXPORT_RETRY_AFTER_S = 2;
/**
 * How long an export waits for its reader to take the next chunk. A client that stops reading
 * (and keeps its connection open) would hold its slot for ever; past this, the answer is cut and
 * the slot freed. A reader on this machine takes 16 MiB in well under a second.
 */
export const EXPORT_IDLE_MS = 15_000;
/**
 * Entries per store call. A page of entries with the largest details (16 KiB each) stays near 8 MiB,
 * which bounds what one export holds in memory at a time and keeps every store call short.
 */
const PAGE = 500;

/** A store's export slots: MAX_CONCURRENT_EXPORTS exports at once per store, whatever other stores do. */
const exportSlots = perStore(() => new Capacity(MAX_CONCURRENT_EXPORTS));

/** What the first pass learnt: the file's entries, its bytes, the seq the second pass stops at, and the file's last line. */
interface Plan {
  count: number;
  bytes: number;
  last_seq: number;
  tail: string;
}

/**
 * The export, oldest entry first (the order the chain verifies in), in two passes over the store,
 * page by page. The first measures the file in the store (entries and bytes, no entries sent) and
 * refuses one that would pass either limit before anything is built; the second streams the answer
 * while it fetches the pages, so an export holds about one page in memory, whatever its size. Both
 * stop at the newest seq matching when the export began, so entries written meanwhile are not in it.
 */
export async function exportAudit(
  { store, memory }: Pick<RequestContext, 'store' | 'memory'>,
  filters: AuditFilters,
  format: ExportFormat,
  now: number,
  idleMs = EXPORT_IDLE_MS,
): Promise<JsonBody<AuditExport>> {
  const release = exportSlots.of(memory).tryTake();
  if (!release) {
    throw new ApiError(
      'audit.export_busy',
      { max_concurrent: MAX_CONCURRENT_EXPORTS, retry_after_s: EXPORT_RETRY_AFTER_S },
      undefined,
      {
        'retry-after': String(EXPORT_RETRY_AFTER_S),
      },
    );
  }
  try {
    const plan = await measure(store, filters, format);
    const stamp = new Date(now)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const envelope = JSON.stringify({
      file_name: `lpa-audit-${stamp}.${format}`,
      count: plan.count,
      content_base64: '',
    } satisfies AuditExport);
    return new JsonBody(fileStream(store, filters, format, plan, envelope, { release, idleMs }));
  } catch (error) {
    release();
    throw error;
  }
}

async function measure(store: StoreClient, filters: AuditFilters, format: ExportFormat): Promise<Plan> {
  const extent = await store.audit.extent(filters);
  const tooLarge = () =>
    new ApiError('audit.export_too_large', {
      count: extent.count,
      max_entries: MAX_EXPORT_ENTRIES,
      max_bytes: MAX_EXPORT_BYTES,
    });
  if (extent.count > MAX_EXPORT_ENTRIES) throw tooLarge();
  // A JSONL file ends with the head the store signs over its first and last entry (storage/audit/export-head.ts).
  const tail = exportTail(format, format === 'jsonl' ? await store.audit.exportHead(filters, extent.last_seq) : null);
  const plan: Plan = {
    count: 0,
    bytes: utf8Length(exportHeader(format)) + utf8Length(tail),
    last_seq: extent.last_seq,
    tail,
  };
  for (let after: number | null = extent.count > 0 ? 0 : null; after !== null; ) {
    const page = await store.audit.exportPageSize(
      filters,
      format,
      { after_seq: after, before_seq: extent.last_seq + 1 },
      PAGE,
    );
    plan.count += page.count;
    plan.bytes += page.bytes;
    if (plan.bytes > MAX_EXPORT_BYTES) throw tooLarge();
    after = page.next_seq;
  }
  return plan;
}

/**
 * The answer's bytes: the JSON of the export with `content_base64` written page by page as the
 * reader takes them. A page is fetched only when the previous one has been taken. Should the log
 * change under the export (the retention job deleting entries it measured), the stream fails
 * rather than send a file that differs from the count it announced.
 */
function fileStream(
  store: StoreClient,
  filters: AuditFilters,
  format: ExportFormat,
  plan: Plan,
  envelope: string,
  { release, idleMs }: { release: () => void; idleMs: number },
) {
  const encoder = new TextEncoder();
  const content = new Base64Chunks();
  const sent = { count: 0, bytes: 0 };
  let after: number | null = plan.count > 0 ? 0 : null;
  const file = (text: string) => {
    const bytes = encoder.encode(text);
    sent.bytes += bytes.length;
    return content.push(bytes);
  };
  // The envelope is `{"file_name":…,"count":…,"content_base64":""}`: the content goes between its last quotes.
  const [opening, closing] = [envelope.slice(0, -2), envelope.slice(-2)];
  let idle: ReturnType<typeof setTimeout> | null = null;
  const stopWaiting = () => {
    if (idle !== null) clearTimeout(idle);
    idle = null;
  };
  // Armed while the stream waits for its reader, cleared while it fetches a page.
  const waitForReader = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    idle = setTimeout(() => {
      release();
      controller.error(new Error(`the reader took nothing for ${idleMs} ms`));
    }, idleMs);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(opening + file(exportHeader(format))));
      waitForReader(controller);
    },
    async pull(controller) {
      stopWaiting();
      try {
        if (after !== null) {
          const page = await store.audit.list(filters, { after_seq: after, before_seq: plan.last_seq + 1 }, PAGE);
          sent.count += page.items.length;
          const encoded = file(page.items.map((record) => exportLine(format, record)).join(''));
          if (encoded.length > 0) controller.enqueue(encoder.encode(encoded));
          after = page.next_seq;
          if (after !== null) return waitForReader(controller);
        }
        const tail = file(plan.tail);
        if (sent.count !== plan.count || sent.bytes !== plan.bytes)
          throw new Error('the audit log changed while it was exported');
        controller.enqueue(encoder.encode(tail + content.finish() + closing));
        controller.close();
        release();
      } catch (error) {
        release();
        console.error('audit export stopped:', error);
        controller.error(error);
      }
    },
    cancel: () => {
      stopWaiting();
      release();
    },
  });
}
