import { notFound } from '@marketplace/errors';
import type { DeliveryStatus } from '../adapters/deliveries-repository';
import type { AccountOwner } from '../domain/platform-account';
import type { ProviderContext } from './context';

/** Unknown or another account's delivery: the same 404 (the contract's `delivery.not_found`). */
export const deliveryNotFound = () => notFound('delivery.not_found', 'No such delivery.');

export async function readDeliveryStatus(
  ctx: ProviderContext,
  owner: AccountOwner,
  providerDeliveryId: string,
): Promise<DeliveryStatus> {
  const status = await ctx.store.deliveries.findStatus(owner, providerDeliveryId);
  if (!status) throw deliveryNotFound();
  return status;
}
