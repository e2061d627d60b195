import type { ApiClient } from '../test/node/api-client';

/** What one connection owns: a global of its own, so its revision checks never race another's. */
export interface ConnectionState {
  global: string;
  revision: number;
}

export interface Operation {
  name: string;
  weight: number;
  /** Runs the request; answers why it failed, or null. */
  run: (api: ApiClient, state: ConnectionState) => Promise<string | null>;
}

const expectStatus = (status: number, wanted: number) => (status === wanted ? null : `HTTP ${status}`);

/** A mix of the common calls of a client: cheap reads, audited secret reads and writes, listings. */
const OPERATIONS: Operation[] = [
  { name: 'version', weight: 30, run: async (api) => expectStatus((await api('/api/v1/version')).status, 200) },
  {
    name: 'global write',
    weight: 25,
    async run(api, state) {
      const value = `${state.global}:${state.revision + 1}:`.padEnd(200 + Math.floor(Math.random() * 2000), 'v');
      const answer = await api(`/api/v1/automation/globals/${state.global}`, {
        method: 'PUT',
        body: { value, expected_revision: state.revision },
      });
      if (answer.status === 200) state.revision = answer.json.revision;
      return expectStatus(answer.status, 200);
    },
  },
  {
    name: 'global read',
    weight: 10,
    async run(api, state) {
      const answer = await api(`/api/v1/automation/globals/${state.global}`);
      return expectStatus(answer.status, state.revision === 0 ? 404 : 200);
    },
  },
  {
    name: 'globals list',
    weight: 10,
    run: async (api) => expectStatus((await api('/api/v1/automation/globals')).status, 200),
  },
  {
    name: 'audit page',
    weight: 10,
    run: async (api) => expectStatus((await api('/api/v1/audit?limit=50')).status, 200),
  },
  {
    name: 'profiles page',
    weight: 10,
    run: async (api) => expectStatus((await api('/api/v1/profiles?limit=20')).status, 200),
  },
  {
    name: 'profile create',
    weight: 5,
    run: async (api) =>
      expectStatus(
        (await api('/api/v1/profiles', { method: 'POST', body: { name: `soak ${Date.now()}`, tags: ['soak'] } }))
          .status,
        201,
      ),
  },
];

const TOTAL_WEIGHT = OPERATIONS.reduce((sum, op) => sum + op.weight, 0);

export function pickOperation(): Operation {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const op of OPERATIONS) {
    roll -= op.weight;
    if (roll < 0) return op;
  }
  return OPERATIONS[0]!;
}
