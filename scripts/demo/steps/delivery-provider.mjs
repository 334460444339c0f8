// Seed step: two demo delivery providers (accept and fulfil deliveries), connected for the tenant.
// Two, so that a demo can reassign a delivery from one to the other (delivery.superseded to the
// first, delivery.assigned to the second) and show that neither sees the other's orders.
import { ensureConnectedApp } from '../lib/installed-app.mjs';

/** The contract both providers consent to: every delivery scope, reading their orders, the delivery events. */
const deliveryContract = (webhookUrl) => ({
  authType: 'ApiKey',
  scopes: [
    'Delivery.Accept',
    'Delivery.Reject',
    'Delivery.Cancel',
    'Delivery.UpdateStatus',
    'Delivery.UpdateDriver',
    'Delivery.UpdateEta',
    'Delivery.UpdateTracking',
    'Orders.Read',
  ],
  subscribedEvents: ['delivery.assigned', 'delivery.cancelled', 'delivery.superseded'],
  webhookUrl,
});

export const deliveryProviderStep = {
  name: 'delivery providers',
  async run(ctx) {
    const deliveryProvider = await ensureConnectedApp(ctx, {
      slug: 'demo-delivery-provider',
      name: 'Demo Delivery Provider',
      contract: deliveryContract(ctx.webhookUrl),
    });
    const deliveryProviderB = await ensureConnectedApp(ctx, {
      slug: 'demo-delivery-provider-b',
      name: 'Demo Delivery Provider B',
      contract: deliveryContract(ctx.webhookUrl),
    });
    return { installations: { deliveryProvider, deliveryProviderB } };
  },
};
