import { AuditExportQuery, AuditHashesQuery, AuditListQuery } from '../../storage/audit/filters';
import {
  AuditCheckpoint,
  AuditExport,
  AuditHashes,
  AuditList,
  AuditPublicKey,
  AuditVerification,
} from '../../storage/audit/schema';
import { defineContract } from './define';

export const audit = {
  list: defineContract({
    method: 'GET',
    path: '/api/v1/audit',
    home: 'team',
    tag: 'Audit',
    summary: 'Audit entries, newest first; pass next_before_seq as before_seq for the next page',
    scopes: ['audit:read'],
    query: AuditListQuery,
    response: AuditList,
  }),
  hashes: defineContract({
    method: 'GET',
    path: '/api/v1/audit/hashes',
    home: 'team',
    tag: 'Audit',
    summary: "The chain's seq and hash, oldest first from after_seq: what a witness compares the heads it kept with",
    description:
      'A machine joined to a team keeps the heads of the team chain its answers named (`X-LPA-Team-Head`); ' +
      '`POST /api/v1/team/verify` compares each with the hash the team has now at that seq.',
    scopes: ['audit:read'],
    query: AuditHashesQuery,
    response: AuditHashes,
  }),
  verify: defineContract({
    method: 'GET',
    path: '/api/v1/audit/verify',
    home: 'team',
    tag: 'Audit',
    summary: 'Recompute the hash chain from the retention checkpoint and check every daily anchor',
    description:
      'Checks the entries up to the newest one when the request arrived (entries written meanwhile are left to the next verify), ' +
      'in short store calls: other requests are served while a long log is verified. One verify runs at a time: ' +
      'another asked meanwhile answers 429 `audit.verify_busy` with Retry-After.',
    scopes: ['audit:read'],
    response: AuditVerification,
    errors: ['audit.verify_busy'],
  }),
  checkpoint: defineContract({
    method: 'GET',
    path: '/api/v1/audit/checkpoint',
    home: 'team',
    tag: 'Audit',
    summary:
      'The head of the chain, signed now with the audit signing key (Ed25519); keep it elsewhere to prove later that nothing before it was rewritten',
    description:
      '`signature` is the base64 Ed25519 signature over the UTF-8 bytes of the canonical JSON (keys sorted, no spaces) of `{hash, seq, store_id, ts}`; ' +
      '`ts` is when it was signed. Verify it with the key of `GET /api/v1/audit/public-key`, or offline with `lpa audit verify-file --checkpoint`.',
    scopes: ['audit:read'],
    response: AuditCheckpoint,
    errors: ['audit.signing_key_missing'],
  }),
  publicKey: defineContract({
    method: 'GET',
    path: '/api/v1/audit/public-key',
    home: 'team',
    tag: 'Audit',
    summary:
      'The Ed25519 public key that verifies anchors and checkpoints; key_id is the hex SHA-256 of its 32 raw bytes',
    scopes: ['audit:read'],
    response: AuditPublicKey,
    errors: ['audit.signing_key_missing'],
  }),
  export: defineContract({
    method: 'GET',
    path: '/api/v1/audit/export',
    home: 'team',
    tag: 'Audit',
    summary:
      'Export matching entries, oldest first, as CSV or JSONL (each JSONL line carries category, v, hash, prev_hash and, ending a sealed day, its signed anchor; the last JSONL line is the head the store signs over the file)',
    scopes: ['audit:read'],
    query: AuditExportQuery,
    response: AuditExport,
    errors: ['audit.export_too_large', 'audit.export_busy'],
  }),
};
