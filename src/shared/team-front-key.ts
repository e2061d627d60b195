/**
 * How the Worker knows a request came through the front of `npm run start:team` over several workerd
 * processes (scripts/team-front.mjs), which stands in for Cloudflare's edge and alone sets
 * `CF-Connecting-IP`: the front puts in this header the key the start script made for the run, which
 * the Worker holds as its binding TEAM_FRONT_KEY (src/runtimes/cloudflare/team-worker.ts). Each
 * process also listens on ports of its own that any local process can reach. Loaded by Node as it
 * is, stripping its types: so this module imports nothing.
 */
export const TEAM_FRONT_KEY_HEADER = 'x-lpa-front-key';
