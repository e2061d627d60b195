import { z } from 'zod';
import { IdList } from '../../src/shared/schemas/ids';
import { itemList } from '../../src/shared/schemas/list';
import { BundledFlow, FlowSummary } from '../flows/schema';
import { SHARE_CODE } from './share-code';

export const Share = z
  .object({
    id: z.string(),
    name: z.string(),
    expires_at: z.int(),
    max_uses: z.int(),
    uses: z.int(),
    size: z.int().meta({ description: 'Bytes of the plaintext bundle.' }),
    sha256: z.string().meta({ description: 'SHA-256 (hex) of the plaintext bundle.' }),
  })
  .meta({ id: 'Share' });
export type Share = z.output<typeof Share>;

export const ShareList = itemList(Share, 'ShareList');

export const NewShare = z
  .object({
    ids: IdList,
    name: z.string().min(1).max(120),
    expires_in_minutes: z.int().min(1).max(43_200),
    max_uses: z.int().min(1).max(1000),
    include_secrets: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'NewShare' });
export type NewShare = z.output<typeof NewShare>;

/** A share as its creator gets it: the only answer that ever holds its code. */
export const ShareWithCode = Share.extend({
  code: z.string().regex(SHARE_CODE).meta({ description: 'The share code; shown once.' }),
}).meta({
  id: 'ShareWithCode',
});
export type ShareWithCode = z.output<typeof ShareWithCode>;

export const ShareRedeemRequest = z
  .object({
    code: z
      .string()
      .min(8)
      .max(2010)
      // Stated, not checked here: a code of the spec's 8..2010 characters that is not of this form is
      // answered `shares.code_malformed`, as the spec says, rather than `request.invalid`.
      .meta({
        pattern: SHARE_CODE.source,
        description: 'A code as `POST /api/v1/automation/shares` gave it; any other is `shares.code_malformed`.',
      }),
  })
  .strict()
  .meta({ id: 'ShareRedeemRequest' });

const PreviewItem = z.object({
  id: z.string(),
  name: z.string(),
  dependencies: z.array(z.string()),
  group: z.string().nullable(),
  description: z.string().nullable(),
  missing_values: z.int(),
  is_template: z.boolean(),
  steps: z.int(),
  protected_values: z.int(),
});
export type PreviewItem = z.output<typeof PreviewItem>;

export const ShareRedeemPreview = z
  .object({
    sha256: z.string(),
    created_at: z.string().meta({ description: 'When the share was created, ISO 8601.' }),
    ticket: z.string().meta({ description: 'Import ticket: one successful import, within 30 minutes.' }),
    expires_at: z.int().meta({ description: 'When the ticket expires.' }),
    items: z.array(PreviewItem),
  })
  .meta({ id: 'ShareRedeemPreview' });
export type ShareRedeemPreview = z.output<typeof ShareRedeemPreview>;

export const ShareImportRequest = z
  .object({
    ticket: z
      .string()
      .length(36)
      .regex(/^[a-f0-9-]{36}$/),
    ids: IdList,
  })
  .strict()
  .meta({ id: 'ShareImportRequest' });
export type ShareImportRequest = z.output<typeof ShareImportRequest>;

/** A flow an import created: its new id. */
const ImportedFlow = FlowSummary.pick({ id: true, name: true, is_template: true });
export type ImportedFlow = z.output<typeof ImportedFlow>;

/** The flows an import created, in the order of the request. */
export const ShareImportResult = itemList(ImportedFlow, 'ShareImportResult');
export type ShareImportResult = z.output<typeof ShareImportResult>;

/** What a share's encrypted bundle holds. */
export const ShareBundle = z.object({
  format: z.literal('lpa.share.v1'),
  created_at: z.int(),
  flows: z.array(BundledFlow),
});
export type ShareBundle = z.output<typeof ShareBundle>;
