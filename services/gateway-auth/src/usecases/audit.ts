import { auditEventId, auditEventTime } from '../domain/audit';
import type { GatewayContext } from './context';
import type { AuditEvent } from './entities';

/** How long writing an audit event may hold up the answer it records. */
const WRITE_WAIT_MS = 2_000;

/**
 * Appends an audit event. Never throws: the change it records has happened (or failed) already,
 * so a failed or slow write is logged (without the event's details beyond its action) and counted
 * (`audit_write_failures_total`), and the answer goes out as it is.
 */
export async function recordAuditEvent(ctx: GatewayContext, event: Omit<AuditEvent, '_id'>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const write = ctx.store.auditEvents.append({ _id: auditEventId(event.at.getTime()), ...event });
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`audit write took over ${WRITE_WAIT_MS} ms`)), WRITE_WAIT_MS);
    });
    await Promise.race([write, late]);
  } catch (error) {
    ctx.auditMetrics.writeFailed();
    ctx.logger.warn(
      { err: error, action: event.action, status: event.status, requestId: event.requestId },
      'audit event not written',
    );
  } finally {
    clearTimeout(timer);
  }
}

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

/** Removes the events older than AUDIT_RETENTION_DAYS (run with the other sweeps). */
export async function pruneAuditEvents(ctx: GatewayContext): Promise<number> {
  return ctx.store.auditEvents.deleteOlderThan(new Date(ctx.now().getTime() - ctx.auditRetentionDays * 86_400_000));
}
