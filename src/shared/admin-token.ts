/** The longest bearer token the service looks at; a longer one is refused unread. */
export const MAX_TOKEN_LENGTH = 512;

/**
 * What an admin token may be: 16..MAX_TOKEN_LENGTH characters of `A-Za-z0-9-._~+/`. The launcher
 * refuses any other (from LPA_ADMIN_TOKEN or the admin-token file), so the redaction of logged paths
 * hashes only runs of these characters (src/pipeline/redact.ts).
 */
export const ADMIN_TOKEN_SHAPE = new RegExp(`^[A-Za-z0-9\\-._~+/]{16,${MAX_TOKEN_LENGTH}}$`);
