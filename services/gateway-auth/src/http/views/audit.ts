import type { AuditEvent } from '../../domain/entities';

/** An audit event as the administrator API shows it. */
export const auditEventView = (e: AuditEvent) => ({
  id: e._id,
  at: e.at.toISOString(),
  tenantId: e.tenantId,
  actor: {
    role: e.actor.role,
    sub: e.actor.sub,
    tenantId: e.actor.tenantId,
    tokenId: e.actor.tokenId,
  },
  action: e.action,
  method: e.method,
  route: e.route,
  target: e.target,
  status: e.status,
  ip: e.ip,
  requestId: e.requestId,
});
