/** Anything with a fetch: a workerd service binding, or a function over the Node host handler. */
export interface HostFetcher {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export const HOST_BASE = 'http://host';

/** A host call that must succeed; its failure is an internal error of the service. */
export async function hostJson<T>(fetcher: HostFetcher, path: string, init?: RequestInit): Promise<T> {
  const response = await fetcher.fetch(`${HOST_BASE}${path}`, init);
  if (!response.ok) throw new Error(`host ${init?.method ?? 'GET'} ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
