import type { GatewayContext } from '../context';

/** Removes the events older than AUDIT_RETENTION_DAYS (run with the other sweeps). */
export async function pruneAuditEvents(ctx: GatewayContext): Promise<number> {
  return ctx.store.auditEvents.deleteOlderThan(new Date(ctx.now().getTime() - ctx.auditRetentionDays * 86_400_000));
}
