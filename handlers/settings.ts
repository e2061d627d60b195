import { settings } from '../src/contracts/settings';
import { implement } from './implement';

export const settingsRoutes = implement(settings, {
  logRetention: ({ ctx }) => ctx.store.settings.logRetention(),
  setLogRetention: ({ ctx, body, audit }) => ctx.store.settings.setLogRetention(audit, body),
  auditRetention: ({ ctx }) => ctx.store.settings.auditRetentionReport(),
  setAuditRetention: ({ ctx, body, audit }) => ctx.store.settings.setAuditRetention(audit, body),
});
