import { requireCapability } from '../../domain/errors';
import type { Capabilities, PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { readDelivery } from './read-delivery';

/**
 * What PATCH, cancel and return check before the body, in this order: the delivery is the
 * account's (404 `delivery.not_found` for an unknown one and another account's alike), then the
 * account has the endpoint's capability (403 `auth.forbidden`). So a request naming no delivery
 * of the account is 404 whatever its body and the account's capabilities; its body's fields (422)
 * are checked after this. Requests are never deleted, so the delivery found here is still there
 * when the change reads it again.
 */
export async function admitChange(
  ctx: ProviderContext,
  account: PlatformAccount,
  providerDeliveryId: string,
  capability: keyof Capabilities,
): Promise<void> {
  await readDelivery(ctx, { accountId: account.id }, providerDeliveryId);
  requireCapability(account, capability);
}
