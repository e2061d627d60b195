import type { AuditAction } from './actions';

export type ActorType = 'token' | 'admin' | 'system' | 'anonymous';
export type AuditResult = 'ok' | 'denied' | 'error';

export interface Actor {
  type: ActorType;
  id: string | null;
  label: string;
}

/** Who acts and why, as the pipeline knows it; handed to every store call that changes state. */
export interface AuditContext {
  actor: Actor;
  source: string;
  request_id: string | null;
  action: AuditAction;
}

export interface AuditSubject {
  entity_type?: string | null;
  entity_id?: string | null;
  entity_no?: number | null;
  details?: Record<string, unknown> | null;
}

/** An audit entry as the spec defines it, plus the chain hash that the JSONL export carries. */
export interface AuditEntry {
  seq: number;
  id: string;
  ts: number;
  actor_type: ActorType;
  actor_id: string | null;
  actor_label: string;
  source: string;
  action: string;
  entity_type: string | null;
  entity_id: string | null;
  entity_no: number | null;
  result: AuditResult;
  error_code: string | null;
  details: Record<string, unknown> | null;
  request_id: string | null;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, label: 'system' };
