import { TRACKING_TOKEN_PATTERN } from '../../domain/delivery';
import { publicTrackingView, type PublicTrackingView } from '../../domain/tracking-view';
import type { ProviderContext } from '../context';

/**
 * What the public tracking page of a link shows, or undefined for an unknown link. A token of the
 * wrong shape is not looked up: the same answer as an unknown one, so nothing tells which exist.
 */
export async function readPublicTracking(
  ctx: ProviderContext,
  token: string | undefined,
): Promise<PublicTrackingView | undefined> {
  if (!token || !TRACKING_TOKEN_PATTERN.test(token)) return undefined;
  const delivery = await ctx.store.deliveries.findByTrackingToken(token);
  return delivery && publicTrackingView(delivery, ctx.now());
}
