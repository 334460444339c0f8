import { pruneAuditEvents } from './audit/prune-audit-events';
import type { GatewayContext } from './context';

/**
 * Removes expired idempotency records and OAuth states, and audit events past their retention. The
 * service sweeps them itself rather than with TTL indexes, which the local engine does not have
 * (MongoDB 7 does; the sweep works on both). Run every few minutes (see runtime/pruning.ts).
 */
export async function pruneExpiredRecords(ctx: GatewayContext): Promise<void> {
  const now = ctx.now();
  await ctx.store.idempotencyRecords.deleteExpired(now);
  await ctx.store.oauthStates.deleteExpired(now);
  await pruneAuditEvents(ctx);
}
