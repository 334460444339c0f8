import { partnerCall, uniqueName, type TestGateway } from '@marketplace/testing';

/** What an order needs from a demo fixture (the file `npm run demo:seed` writes). */
export interface DemoOrderFixture {
  installations: { orderSource: { apiKey: string } };
  branches: { id: string; name: string }[];
  deliveryZones: { id: string; inside: { latitude: number; longitude: number } }[];
}

type Point = { latitude: number; longitude: number };

/**
 * Places the demo order a partner would: six colas from Demo Bistro Mitte, delivered to `point`
 * (inside the seeded zone unless told otherwise), with the order-source key. Answers the
 * gateway's response.
 */
export async function placeDemoOrder(
  gw: TestGateway,
  fixture: DemoOrderFixture,
  options: { point?: Point; promotionCode?: string; paymentMethod?: 1 | 2 } = {},
) {
  const key = fixture.installations.orderSource.apiKey;
  const mitte = fixture.branches.find((b) => b.name === 'Demo Bistro Mitte')!;
  const zone = fixture.deliveryZones[0]!;
  const menu = (await partnerCall(gw, key, 'GET', `/catalog/branches/${mitte.id}/products`)).body;
  const cola = menu.categories.flatMap((c: any) => c.products).find((p: any) => p.name === 'Cola');
  return partnerCall(gw, key, 'POST', '/orders', {
    headers: { 'idempotency-key': uniqueName('demo-order') },
    body: JSON.stringify({
      branchId: mitte.id,
      orderMode: 1,
      customerName: 'Demo Customer',
      customerPhone: '+49 30 555 0100',
      paymentMethod: options.paymentMethod ?? 1,
      externalOrderId: uniqueName('demo'),
      ...(options.promotionCode ? { promotionCode: options.promotionCode } : {}),
      deliveryZoneId: zone.id,
      deliveryAddress: { label: null, addressLine: 'Torstraße 10', ...(options.point ?? zone.inside) },
      lines: [{ productId: cola.id, variantId: cola.variants[0].id, quantity: 6, modifierSelections: [] }],
    }),
  });
}
