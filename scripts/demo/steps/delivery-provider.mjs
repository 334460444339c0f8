// Seed step: the demo delivery provider (accepts and fulfils deliveries), connected for the tenant.
import { ensureConnectedApp } from '../lib/installed-app.mjs';

export const deliveryProviderStep = {
  name: 'delivery provider',
  async run(ctx) {
    const deliveryProvider = await ensureConnectedApp(ctx, {
      slug: 'demo-delivery-provider',
      name: 'Demo Delivery Provider',
      contract: {
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
        webhookUrl: ctx.webhookUrl,
      },
    });
    return { installations: { deliveryProvider } };
  },
};
