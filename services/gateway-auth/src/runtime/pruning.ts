import type { Logger } from '@marketplace/logging';
import type { GatewayContext } from '../usecases/context';
import { pruneExpiredRecords } from '../usecases/prune-expired-records';

const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Sweeps the expired records every ten minutes in the background (a failed sweep is logged and tried again). Returns the stop. */
export function startPruning(ctx: GatewayContext, logger: Logger): () => void {
  const pruning = setInterval(
    () => pruneExpiredRecords(ctx).catch((error) => logger.warn({ err: error }, 'pruning expired records failed')),
    PRUNE_INTERVAL_MS,
  );
  pruning.unref();
  return () => clearInterval(pruning);
}
