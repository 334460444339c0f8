import { createPartnerClient, idempotencyHeader, type PartnerComponents } from 'marketplace-api-clients';

type CreateOrderRequest = PartnerComponents['schemas']['CreateOrderRequest'];

/** A partner lists a branch's catalog, then places an order at that branch. */
export async function orderFromBranch(baseUrl: string, apiKey: string, order: CreateOrderRequest) {
  const partner = createPartnerClient({ baseUrl, apiKey });

  const catalog = await partner.GET('/api/partner/v1/catalog/branches/{branchId}/products', {
    params: { path: { branchId: order.branchId } },
  });
  if (catalog.error) throw new Error(`catalog: ${catalog.error.code}`);
  const products = catalog.data.categories.flatMap((category) => category.products.map((product) => product.name));

  // One key per order, kept for its retries: a retry with the same key never creates a second order.
  const header = idempotencyHeader();
  const created = await partner.POST('/api/partner/v1/orders', { params: { header }, body: order });
  if (created.error) throw new Error(`order: ${created.error.code} ${created.error.detail}`);
  const { orderId, orderNumber, grandTotal, currencyCode } = created.data;
  return { products, orderId, orderNumber, total: `${grandTotal} ${currencyCode}` };
}
