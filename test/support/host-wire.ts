import { env } from 'cloudflare:workers';
import { hostPath, type HostGroup, type HostOperations } from '../../src/host/operations';
import { HOST_BASE } from '../../src/host/port';

/**
 * One host operation called on the wire as it is, with arguments the typed client would never send:
 * what the host itself does with names the worker refuses.
 */
export function rawHostCall<G extends HostGroup>(
  group: G,
  name: keyof HostOperations[G] & string,
  args: unknown[],
): Promise<Response> {
  return env.HOST.fetch(`${HOST_BASE}${hostPath(group, name)}`, { method: 'POST', body: JSON.stringify(args) });
}
