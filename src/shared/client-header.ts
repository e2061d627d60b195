/**
 * The header by which LPA's own clients identify themselves, so that the audit log records their
 * requests with their source: 'cli' for the `lpa` command, 'mcp' for the `lpa mcp` server.
 */
export const CLIENT_HEADER = 'x-lpa-client';

/** The sources a client may claim; any other header value is ignored and the source stays 'api'. */
export const CLIENT_SOURCES = ['cli', 'mcp'] as const;
export type ClientSource = (typeof CLIENT_SOURCES)[number];

/** The audit source a request's client header names, or 'api'. */
export function clientSource(header: string | null): ClientSource | 'api' {
  return CLIENT_SOURCES.find((source) => source === header) ?? 'api';
}
