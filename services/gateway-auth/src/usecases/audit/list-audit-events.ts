import { auditEventTime } from '../../domain/audit';
import type { AuditEvent } from '../../domain/entities';
import type { GatewayContext } from '../context';

export interface AuditQuery {
  tenantId?: string;
  /** An event id (a UUID v7, see auditEventTime): the last event of the previous page. */
  before?: string;
  limit: number;
}

/** The audit log, newest first: one tenant's events or everyone's, a page below `before`. */
export async function listAuditEvents(ctx: GatewayContext, query: AuditQuery): Promise<AuditEvent[]> {
  const beforeAt = query.before === undefined ? undefined : auditEventTime(query.before);
  const page = {
    before: query.before === undefined ? undefined : { id: query.before, at: new Date(beforeAt ?? 0) },
    limit: query.limit,
  };
  return query.tenantId === undefined
    ? ctx.store.auditEvents.listAcrossTenants(page)
    : ctx.store.auditEvents.listForTenant({ tenantId: query.tenantId }, page);
}
