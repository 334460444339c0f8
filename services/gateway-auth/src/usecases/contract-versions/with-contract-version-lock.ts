import { busy } from '@marketplace/errors';
import type { GatewayContext } from '../context';

/**
 * Changes of one version run one at a time (a Redis lock): an edit reads, checks and writes, and
 * one racing the publication must not slip into a published version. The writes are conditional
 * on the draft status as well; the lock keeps the whole read-check-write in one piece.
 */
export async function withContractVersionLock<T>(
  ctx: GatewayContext,
  appId: string,
  version: number,
  work: () => Promise<T>,
): Promise<T> {
  const result = await ctx.locks.withLock(`contract:${appId}:${version}`, { ttlMs: 10_000, waitMs: 5_000 }, work);
  if (!result) throw busy('The contract version is being changed; try again shortly.');
  return result.value;
}
