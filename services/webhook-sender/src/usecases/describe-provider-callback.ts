import type { ProviderCallbackDelivery } from '../domain/delivery';
import { callbackOrigin } from '../domain/provider-callback';
import type { WebhookContext } from './context';

/**
 * A provider callback as the administrator API shows it: the delivery, and where it goes as far as
 * may be shown (the callback's scheme and host; null when the sealed URL does not open).
 */
export interface ProviderCallbackRecord {
  delivery: ProviderCallbackDelivery;
  callbackOrigin: string | null;
}

/** The callback with its origin, opened from the sealed URL (a step of the administrator use cases). */
export function describeProviderCallback(
  ctx: WebhookContext,
  delivery: ProviderCallbackDelivery,
): ProviderCallbackRecord {
  let origin: string | null = null;
  try {
    origin = callbackOrigin(ctx.unseal.callbackUrl(delivery.providerDeliveryId, delivery.callbackUrlSealed));
  } catch {
    origin = null; // sealed under another key: the attempts say so; the listing still answers
  }
  return { delivery, callbackOrigin: origin };
}
