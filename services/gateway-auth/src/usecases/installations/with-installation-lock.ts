import { busy } from '@marketplace/errors';
import type { GatewayContext } from '../context';

/**
 * Changes of one installation run one at a time under a Redis lock: connect, rotate and disconnect
 * each read the installation, then touch several documents (keys, states, the installation), and
 * the event revision must grow by one per change. The lock keeps each change whole on MongoDB 7
 * as on the local engine.
 */
export async function withInstallationLock<T>(
  ctx: GatewayContext,
  installationId: string,
  work: () => Promise<T>,
): Promise<T> {
  const result = await ctx.locks.withLock(`installation:${installationId}`, { ttlMs: 30_000, waitMs: 10_000 }, work);
  if (!result) throw busy('The installation is being changed by another request; try again shortly.');
  return result.value;
}
