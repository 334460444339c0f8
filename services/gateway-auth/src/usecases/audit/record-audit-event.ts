import { auditEventId } from '../../domain/audit';
import type { AuditEvent } from '../../domain/entities';
import type { GatewayContext } from '../context';

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
