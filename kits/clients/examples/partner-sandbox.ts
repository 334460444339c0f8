import { createPartnerClient, idempotencyHeader } from 'marketplace-api-clients';

/** In a sandbox, a partner has the restaurant cancel one of its orders: orders.cancelled follows. */
export async function sandboxCancel(baseUrl: string, apiKey: string, orderId: string) {
  const partner = createPartnerClient({ baseUrl, apiKey });

  const run = await partner.POST('/api/partner/v1/sandbox/scenarios', {
    params: { header: idempotencyHeader() },
    body: { scenario: 'order.cancel', orderId },
  });
  if (run.error) throw new Error(`scenario: ${run.error.code} ${run.error.detail}`);
  return { does: run.data.does, emits: run.data.emits.map((event) => `${event.type} to ${event.to}`) };
}
