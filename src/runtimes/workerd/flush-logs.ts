/**
 * What the launcher sends (POST, with the admin token) before it stops workerd: the worker writes
 * its buffered `api` log lines and answers 204 once the host has them. Not an API route: a request
 * to this path without the admin token goes through the pipeline like any other.
 */
export const FLUSH_LOGS_PATH = '/_lpa/flush-logs';
