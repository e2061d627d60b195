/**
 * The shapes of the API's answers, derived from the route declarations' zod schemas (type-only:
 * nothing of zod reaches the bundle). One place, so the console can move to typed route contracts.
 */
import type { z } from 'zod';
import type {
  Reachability as ReachabilitySchema,
  Versions as VersionsSchema,
  CoreStatus,
} from '../../storage/system/schema';
import type { AccountStatus } from '../../storage/membership/schema';
import type { CreatedToken, Token } from '../../storage/tokens/schema';
import type {
  AuditCheckpoint,
  AuditEntry,
  AuditExport,
  AuditList,
  AuditResult,
  AuditVerification,
} from '../../storage/audit/schema';
import type { AuditRetention, LogRetention } from '../../storage/settings/schema';
import type { GlobalSummary, GlobalValue } from '../../storage/globals/schema';
import type { FlowSummary } from '../../storage/flows/schema';
import type { ShareRedeemPreview, Share, ShareWithCode } from '../../storage/shares/schema';
import type { Profile, ProfilePage } from '../../storage/profiles/schema';
import type { PlatformAccount, PlatformPassword, TotpCode } from '../../storage/profile-accounts/schema';
import type { AutomationFileContent as AutomationFileContentSchema, AutomationFileListing } from '../host/files-schema';
import type { LogExcerpt } from '../shared/logs/excerpt';
import type { LogFileList } from '../shared/logs/streams';
import type { SynchronizerStatus } from '../shared/schemas/synchronizer';

export type { AccountStatus, AuditRetention, CoreStatus, CreatedToken, Token };
export type { AuditCheckpoint, AuditEntry, AuditExport, AuditList, AuditResult, AuditVerification };
export type { GlobalSummary, GlobalValue, FlowSummary, ShareRedeemPreview, Share, ShareWithCode };
export type { Profile, ProfilePage, PlatformAccount, PlatformPassword, TotpCode, AutomationFileListing };
export type { LogExcerpt, LogFileList, LogRetention, SynchronizerStatus };
export type AutomationFileContent = z.output<typeof AutomationFileContentSchema>;
export type Reachability = z.output<typeof ReachabilitySchema>;
export type Versions = z.output<typeof VersionsSchema>;
export type Items<T> = { items: T[] };
