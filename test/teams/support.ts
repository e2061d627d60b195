import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { importJWK, SignJWT, type JWK } from 'jose';
import type { DurableStoreObject } from '../../src/object/durable-store-object';
import type { TeamWorkerEnv } from '../../src/runtimes/cloudflare/team-worker';
import { teamStoreKey } from '../../src/teams/team-id';
import { TEAM_BASE_URL, TEAM_TEST_HOST, TEAM_TEST_OPERATOR_TOKEN } from './constants';

interface TeamTestEnv extends TeamWorkerEnv {
  LPA_ACCESS_AUD: string;
  LPA_ACCESS_ISSUER: string;
  TEST_ACCESS_KEYS: string;
}
const testEnv = env as unknown as TeamTestEnv;

export interface TeamCallOptions {
  method?: string;
  /** A bearer token (a team token, the operator's). */
  token?: string;
  /** A Cloudflare Access assertion (`Cf-Access-Jwt-Assertion`). */
  assertion?: string;
  body?: unknown;
  clientIp?: string;
  headers?: Record<string, string>;
}

/** One request to the team service as it arrives from Cloudflare's edge: Host, CF-Connecting-IP, and what the caller sends. */
export async function teamCall(path: string, options: TeamCallOptions = {}) {
  const headers: Record<string, string> = {
    host: TEAM_TEST_HOST,
    'cf-connecting-ip': options.clientIp ?? '203.0.113.7',
    ...options.headers,
  };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.assertion !== undefined) headers['cf-access-jwt-assertion'] = options.assertion;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const worker = exports.default as unknown as { fetch: (url: string, init: RequestInit) => Promise<Response> };
  const response = await worker.fetch(`${TEAM_BASE_URL}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined, text };
}

/** Creates a team as the operator does; its owner is `owner`. */
export async function createTeam(teamId: string, owner = `owner@${teamId}.example`) {
  const res = await teamCall('/v1/teams', {
    method: 'POST',
    token: TEAM_TEST_OPERATOR_TOKEN,
    body: { team_id: teamId, owner },
  });
  if (res.status !== 201) throw new Error(`team creation failed: ${res.status} ${res.text}`);
  return { teamId, owner, answer: res.text };
}

export interface AssertionOptions {
  key?: 'signing' | 'stranger';
  audience?: string;
  issuer?: string;
  /** Seconds from now; negative for an expired assertion. */
  expiresIn?: number;
  notBefore?: number;
  alg?: string;
  claims?: Record<string, unknown>;
}

/** An assertion as Cloudflare Access signs it for a person (`email`). */
export async function assertionFor(email: string | null, options: AssertionOptions = {}): Promise<string> {
  const keys = JSON.parse(testEnv.TEST_ACCESS_KEYS) as Record<'signing' | 'stranger', JWK>;
  const jwk = keys[options.key ?? 'signing'];
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ ...(email === null ? {} : { email }), ...options.claims })
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: jwk.kid })
    .setAudience(options.audience ?? testEnv.LPA_ACCESS_AUD)
    .setIssuer(options.issuer ?? testEnv.LPA_ACCESS_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 300));
  if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
  return jwt.sign(await importJWK(jwk, 'RS256'));
}

/** A team token made by the team's owner through the API. */
export async function teamToken(
  teamId: string,
  owner: string,
  scopes: string[],
  admin = false,
  name = `t-${crypto.randomUUID()}`,
) {
  const res = await teamCall(`/teams/${teamId}/api/v1/tokens`, {
    method: 'POST',
    assertion: await assertionFor(owner),
    body: { name, scopes, ...(admin ? { admin } : {}) },
  });
  if (res.status !== 201) throw new Error(`team token failed: ${res.status} ${res.text}`);
  return res.json as { id: string; token: string };
}

/** A team's API path: `/teams/{team_id}/api/v1` and the route's own path (without its `/api/v1`). */
export const teamPath = (teamId: string, path: string) => `/teams/${teamId}/api/v1${path}`;

/** `fn` over every item, `size` of them in flight at once; the answers in the items' order. */
export async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = [];
  for (let i = 0; i < items.length; i += size) answers.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return answers;
}

/** The team service's bindings, as the tests see them: the teams' objects, the bucket. */
export const teamEnv: TeamWorkerEnv = testEnv;

/** Runs `fn` inside a team's Durable Object (`team:<id>`), beside the requests it serves. */
export function inTeamObject<T>(
  teamId: string,
  fn: (instance: DurableStoreObject, state: DurableObjectState) => T | Promise<T>,
): Promise<T> {
  return runInDurableObject(testEnv.TEAMS.getByName(teamStoreKey(teamId)), fn);
}
