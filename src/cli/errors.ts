import { escapeUnsafe } from '../shared/unicode';
import type { ApiCallError } from './client';

type Issue = { in?: string; path?: (string | number)[]; message?: string };

/**
 * An error as a person reads it: the code, the HTTP status and the message, then the details, so a
 * 400 names each field at fault (`body.name: …`) and a 409 its `current_revision`.
 */
export function describeError(error: ApiCallError): string {
  const lines = [`error: ${error.code}${error.status ? ` (HTTP ${error.status})` : ''}: ${error.message}`];
  for (const [name, value] of Object.entries(error.details)) {
    if (name === 'issues' && Array.isArray(value)) {
      for (const issue of value as Issue[])
        lines.push(
          `  ${[issue.in, ...(issue.path ?? [])].filter((part) => part !== undefined).join('.')}: ${issue.message ?? ''}`,
        );
    } else lines.push(`  ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  // Each line holds the service's text on one line: none of its control characters, line feeds included.
  return `${lines.map((line) => escapeUnsafe(line)).join('\n')}\n`;
}
