import { z } from 'zod';
import { Id } from '../../src/shared/schemas/ids';
import { queryInt } from '../../src/shared/schemas/query';
import { AuditCategory } from './actions';
import { AuditResult, ExportFormat } from './schema';

/**
 * The filters shared by the list and the export, with the spec's bounds, as query strings; text
 * filters must not be empty. The store's filter type, the routes' queries and the CLI's options
 * all come from here.
 */
export const AUDIT_FILTERS = {
  category: AuditCategory.optional(),
  from: queryInt(0).optional().meta({ description: 'Entries at or after this time (epoch ms); not after `to`.' }),
  to: queryInt(0).optional().meta({ description: 'Entries at or before this time (epoch ms).' }),
  action: z.string().min(1).max(100).optional().meta({ description: 'Exact action, e.g. `tokens.create`.' }),
  source: z.string().min(1).max(20).optional(),
  actor_type: z.string().min(1).max(20).optional(),
  entity_id: Id.optional(),
  entity_no: queryInt(1).optional(),
  result: AuditResult.optional(),
  search: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Case-insensitive substring of the text fields and details.' }),
};

/** The filters, parsed: what the store's list and count take. */
export type AuditFilters = z.output<z.ZodObject<typeof AUDIT_FILTERS>>;

const fromNotAfterTo = (q: AuditFilters) => q.from === undefined || q.to === undefined || q.from <= q.to;
const FROM_AFTER_TO = { message: '`from` must not be after `to`', path: ['from'] };

/** Entries per list page when `limit` is not given. */
export const DEFAULT_LIST_LIMIT = 100;

export const AuditListQuery = z
  .object({
    ...AUDIT_FILTERS,
    before_seq: queryInt(1).optional(),
    limit: queryInt(1, 1000)
      .optional()
      .meta({ description: `Default ${DEFAULT_LIST_LIMIT}.` }),
  })
  .strict()
  .refine(fromNotAfterTo, FROM_AFTER_TO);

export const AuditExportQuery = z
  .object({ ...AUDIT_FILTERS, format: ExportFormat })
  .strict()
  .refine(fromNotAfterTo, FROM_AFTER_TO);

export const AuditHashesQuery = z
  .object({
    after_seq: queryInt(0).optional().meta({ description: 'Entries after this seq; default 0, the first.' }),
    limit: queryInt(1, 1000)
      .optional()
      .meta({ description: `Default ${DEFAULT_LIST_LIMIT}.` }),
  })
  .strict();
