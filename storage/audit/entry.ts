import type { AuditAction } from './actions';

/**
 * Who can act; an entry records it as `actor_type`. A `member` is a person (or an Access service
 * token) of a team who came through Cloudflare Access, labelled with their email.
 */
export const ACTOR_TYPES = ['token', 'admin', 'system', 'anonymous', 'member'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface Actor {
  type: ActorType;
  id: string | null;
  label: string;
}

/** Who acts and why, as the pipeline knows it; handed to every store call that changes state. */
/** The machine a team's request came through (docs/teams.md#a-machine-in-a-team): recorded in the entry's `details.via`. */
export interface Via {
  machine_id: string;
  /** The local token the machine checked, if the request carried one. */
  local_token_id: string | null;
}

export interface AuditContext {
  actor: Actor;
  source: string;
  request_id: string | null;
  action: AuditAction;
  via?: Via;
}

export interface AuditSubject {
  entity_type?: string | null;
  entity_id?: string | null;
  entity_no?: number | null;
  details?: Record<string, unknown> | null;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, label: 'system' };
