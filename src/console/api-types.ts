/**
 * The shapes of the API's answers, derived from the route declarations' zod schemas (type-only:
 * nothing of zod reaches the bundle). One place, so the console can move to typed route contracts.
 */
import type { z } from 'zod';
import type { Reachability as ReachabilitySchema, Versions as VersionsSchema, CoreStatus } from '../../storage/system/schema';
import type { AccountStatus } from '../../storage/membership/schema';

export type { CoreStatus, AccountStatus };
export type Reachability = z.output<typeof ReachabilitySchema>;
export type Versions = z.output<typeof VersionsSchema>;
