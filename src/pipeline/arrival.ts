import type { Arrival, Sender } from './app';

/**
 * How a request crosses from an entry's front to the store's Durable Object: by the object's
 * `fetch`, at the URL the object serves it at, its arrival (request id, client address, and for a
 * team the id as the path named it) in a header only the front sets. A Durable Object's `fetch`
 * costs about two thirds of a JS RPC method taking and giving the same request and answer as data
 * (docs/benchmarks.md#the-object-hop), and carries a streamed answer (the audit export) as it is.
 */
const ARRIVAL_HEADER = 'x-lpa-arrival';

/** What the object is told beside the request: its sender, and the team a team's front named. */
export interface ArrivalFacts extends Sender {
  /** The team id as the path named it (a team's request only): whose budget of failures an object of a team not created spends. */
  teamId?: string;
}

/** The request the front hands on: served at `url`, its arrival in the header (any the client sent is replaced). */
export function arrivingRequest(request: Request, url: string, facts: ArrivalFacts): Request {
  const arriving = new Request(url, request);
  arriving.headers.set(ARRIVAL_HEADER, JSON.stringify(facts));
  return arriving;
}

/**
 * In the object: the request's arrival. The header stays on the request (a copy without it would
 * cost a Request per request): no step reads it, the api log names no header, and a request to a
 * team forwards only the headers it lists (src/host/team-link-request.ts).
 */
export function arrivalOf(request: Request): Arrival & ArrivalFacts {
  const facts = JSON.parse(request.headers.get(ARRIVAL_HEADER) ?? '{}') as ArrivalFacts;
  return { ...facts, url: request.url };
}
