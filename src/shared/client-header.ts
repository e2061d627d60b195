/** The header by which the `lpa` command identifies itself, so that the audit log records its requests with source 'cli'. */
export const CLIENT_HEADER = 'x-lpa-client';
