// Seed step: the demo order source (a POS or online shop creating orders), connected for the tenant.
import { ensureConnectedApp } from '../lib/installed-app.mjs';

export const orderSourceStep = {
  name: 'order source',
  async run(ctx) {
    const orderSource = await ensureConnectedApp(ctx, {
      slug: 'demo-order-source',
      name: 'Demo Order Source',
      contract: {
        authType: 'ApiKey',
        scopes: ['Catalog.Read', 'Orders.Create'],
        subscribedEvents: ['orders.created', 'orders.cancelled', 'payment.completed'],
        webhookUrl: ctx.webhookUrl,
      },
    });
    return { installations: { orderSource } };
  },
};
