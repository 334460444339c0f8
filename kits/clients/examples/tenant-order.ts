import { createTenantClient } from 'marketplace-api-clients';

/** The restaurant reads an order a partner placed, then accepts it. */
export async function acceptOrder(baseUrl: string, token: string, orderId: string) {
  const tenant = createTenantClient({ baseUrl, token });

  const order = await tenant.GET('/api/tenant/v1/orders/{id}', { params: { path: { id: orderId } } });
  if (order.error) throw new Error(`order: ${order.error.code}`);

  const accepted = await tenant.POST('/api/tenant/v1/orders/{id}/accept', { params: { path: { id: orderId } } });
  if (accepted.error) throw new Error(`accept: ${accepted.error.code}`);
  return {
    orderNumber: order.data.orderNumber,
    placedBy: order.data.sourceInstallationId,
    status: accepted.data.statusName,
  };
}
