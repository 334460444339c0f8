import type { Driver } from '../../domain/driver';
import { offerGone } from '../../domain/errors';
import { isTerminal } from '../../domain/lifecycle';
import type { ProviderContext } from '../context';
import { changeDelivery } from '../deliveries/change-delivery';

/** The driver says no: the offer ends declined and the dispatcher offers the delivery to the next driver at once. */
export async function declineOffer(ctx: ProviderContext, driver: Driver, providerDeliveryId: string) {
  const owner = { accountId: driver.accountId };
  if (driver.offer?.providerDeliveryId !== providerDeliveryId || driver.offer.expiresAt <= ctx.now()) throw offerGone();
  await ctx.store.drivers.dropOffer(owner, driver.id, providerDeliveryId, ctx.now());
  await changeDelivery(ctx, owner, providerDeliveryId, (delivery, now) => {
    const offer = delivery.offers.find((o) => o.driverId === driver.id && o.outcome === 'pending');
    if (!offer) return { answer: undefined };
    return {
      changes: {
        offers: delivery.offers.map((o) => (o === offer ? { ...o, outcome: 'declined' as const } : o)),
        dispatchAt: delivery.driverId === null && !isTerminal(delivery.status) ? now : delivery.dispatchAt,
      },
      answer: undefined,
    };
  });
  return { declined: true as const };
}
