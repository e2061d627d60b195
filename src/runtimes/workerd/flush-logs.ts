/**
 * The channel the launcher flushes the worker's buffered `api` log lines through before it stops
 * workerd: a second workerd socket, on a unix socket in the launcher's private run folder (mode
 * 0700), bound to the worker's `LogFlush` entrypoint. No HTTP client of the service's port reaches
 * it, so it needs no token and no guard: on the port, its former path is an unknown path like any.
 */
export const FLUSH_ENTRYPOINT = 'LogFlush';

/** The socket's file name inside the run folder. */
export const FLUSH_SOCKET = 'flush.sock';
