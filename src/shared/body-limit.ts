/** The spec's 1 MiB: the largest request body of a route that declares no limit of its own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
