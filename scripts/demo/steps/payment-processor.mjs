// Seed step: the demo restaurant's payment processor (the processor of its card-on-delivery
// terminals), through the tenant API: a fresh processor secret on every run (the one it replaces
// keeps working for its overlap). Adds `paymentProcessor` to the fixture: where the processor posts
// its notifications and the secret it signs them with. `npm run demo:pay -- --order ID` then plays
// the processor (scripts/demo/payment-processor.mjs).

const API = '/api/tenant/v1';

export const paymentProcessorStep = {
  name: 'payment processor',
  async run(ctx) {
    const rotated = await ctx.tenant.call('POST', `${API}/payment-processor/secret/rotate`, undefined, [200]);
    ctx.report(`payment processor: notifications to ${rotated.notificationUrl}`);
    return { paymentProcessor: { notificationUrl: rotated.notificationUrl, secret: rotated.secret } };
  },
};
