import { z } from 'zod';
import { itemList } from '../../src/shared/schemas/list';
import { DIGITS, PERIOD_S, totpProblem } from '../../src/shared/totp';

/** A platform account as the API shows it: its password and 2FA secret only as whether they are set. */
export const PlatformAccount = z
  .object({
    id: z.string(),
    profile_id: z.string(),
    platform_url: z.string(),
    username: z.string().nullable(),
    password_set: z.boolean(),
    totp_set: z.boolean(),
    notes: z.string().nullable(),
    sort_order: z.int(),
    created_at: z.int(),
    updated_at: z.int(),
  })
  .meta({ id: 'PlatformAccount' });
export type PlatformAccount = z.output<typeof PlatformAccount>;

export const PlatformAccountList = itemList(PlatformAccount, 'PlatformAccountList');

const TotpSecret = z
  .string()
  .min(1)
  .max(1024)
  .superRefine((secret, issues) => {
    const problem = totpProblem(secret);
    if (problem) issues.addIssue({ code: 'custom', message: `Unusable 2FA secret: ${problem}` });
  });

export const PlatformAccountInput = z
  .object({
    platform_url: z.string().min(1).max(256),
    username: z.string().max(256).nullable().optional(),
    password: z.string().max(1024).nullable().optional(),
    totp_secret: TotpSecret.nullable().optional(),
    notes: z.string().max(1024).nullable().optional(),
    sort_order: z.int().min(0).optional(),
  })
  .strict()
  .meta({ id: 'PlatformAccountInput' });
export type PlatformAccountInput = z.output<typeof PlatformAccountInput>;

/** The fields to change; null for password or totp_secret removes it, absent leaves it. */
export const PlatformAccountPatch = PlatformAccountInput.partial().meta({ id: 'PlatformAccountPatch' });
export type PlatformAccountPatch = z.output<typeof PlatformAccountPatch>;

export const PlatformPassword = z.object({ password: z.string() }).meta({ id: 'PlatformPassword' });
export type PlatformPassword = z.output<typeof PlatformPassword>;

/** The current code of a 2FA secret and the whole seconds it stays valid. */
export const TotpCode = z
  .object({
    code: z.string().regex(new RegExp(`^[0-9]{${DIGITS.min},${DIGITS.max}}$`)),
    remaining_s: z.int().min(1).max(PERIOD_S.max),
  })
  .meta({ id: 'TotpCode' });
export type TotpCode = z.output<typeof TotpCode>;
