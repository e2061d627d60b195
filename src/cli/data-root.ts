import { resolve } from 'node:path';
import { environmentOf, type ProcessVars } from '../shared/environment';

/** The data root of the service on this machine (LPA_DATA_ROOT, ./data): its admin-token file, its team link. */
export const dataRootOf = (vars: ProcessVars): string => resolve(environmentOf(vars).LPA_DATA_ROOT || './data');
