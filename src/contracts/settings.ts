import {
  AuditRetention,
  AuditRetentionSetting,
  AuditRetentionWrite,
  LogRetention,
  LogRetentionPatch,
} from '../../storage/settings/schema';
import { defineContract } from './define';

export const settings = {
  logRetention: defineContract({
    method: 'GET',
    path: '/api/v1/settings/logs',
    home: 'local',
    tag: 'Settings',
    summary: 'Log retention',
    response: LogRetention,
  }),
  setLogRetention: defineContract({
    method: 'PUT',
    path: '/api/v1/settings/logs',
    home: 'local',
    tag: 'Settings',
    summary: 'Change log retention; a field left out keeps its value',
    scopes: ['settings:write'],
    body: LogRetentionPatch,
    response: LogRetention,
    audit: 'settings.logs_write',
  }),
  auditRetention: defineContract({
    method: 'GET',
    path: '/api/v1/settings/audit',
    home: 'team',
    tag: 'Settings',
    summary: 'Audit retention, with the number of entries kept and the time of the oldest',
    scopes: ['audit:read'],
    response: AuditRetention,
  }),
  setAuditRetention: defineContract({
    method: 'PUT',
    path: '/api/v1/settings/audit',
    home: 'team',
    tag: 'Settings',
    summary: 'Change the audit retention; the daily job deletes older entries',
    scopes: ['settings:write'],
    body: AuditRetentionWrite,
    response: AuditRetentionSetting,
    audit: 'settings.audit_write',
  }),
};
