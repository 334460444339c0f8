import { randomUUID } from 'node:crypto';
import { connectedApp } from '@marketplace/testing';
import {
  INSIDE,
  MITTE_SQUARE,
  OUTSIDE,
  pickupOrder,
  restaurant,
  selectionId,
  startOrderingCluster,
  waitForCopy,
  type OrderingCluster,
  type Restaurant,
} from './support/cluster';

// POST /api/partner/v1/orders through the gateway, against a real catalog and its copy in ordering.
let cluster: OrderingCluster;
let r: Restaurant;
let zoneId: string;

const countOrders = () => cluster.db.collection('orders').countDocuments({ tenantId: r.tenantId });

beforeAll(async () => {
  cluster = await startOrderingCluster();
  r = await restaurant(cluster);
  const zone = await r.manage('POST', '/delivery-zones', {
    branchId: r.menu.branchId,
    name: 'Mitte 2 km',
    geometry: MITTE_SQUARE,
    fee: 2.5,
    minimumOrder: 10,
  });
  expect(zone.status).toBe(201);
  zoneId = zone.body.id;
}, 180_000);
afterAll(async () => cluster?.stop());

describe('a valid order', () => {
  it('is priced by the service and answered with every field of the create response', async () => {
    const res = await r.partner('POST', '/orders', pickupOrder(r.menu, { externalOrderId: 'first-order' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/partner/v1/orders/${res.body.orderId}`);
    // Pizza 12.00 incl. 7 %, two colas 2.50 excl. 19 %: subtotal 17.00; inclusive tax
    // 1200 × 7/107 = 78.50… → 0.79; exclusive 500 × 0.19 = 0.95; total 17.00 + 0.95 = 17.95.
    expect(res.body).toEqual({
      orderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      orderNumber: expect.stringMatching(/^\d{4,}$/),
      status: 1,
      paymentStatus: 1,
      currencyCode: 'EUR',
      subtotal: 17,
      discountTotal: 0,
      taxTotal: 1.74,
      deliveryFee: 0,
      serviceFee: 0,
      grandTotal: 17.95,
      externalOrderId: 'first-order',
    });
  });

  it('numbers a tenant’s orders one after another', async () => {
    const a = await r.partner('POST', '/orders', pickupOrder(r.menu));
    const b = await r.partner('POST', '/orders', pickupOrder(r.menu));
    expect(Number(b.body.orderNumber)).toBe(Number(a.body.orderNumber) + 1);
  });

  it('adds the zone fee, the service fee and a promotion on a delivery order', async () => {
    expect((await r.manage('PUT', '/service-fee', { fixed: 0.5, percent: 2 })).status).toBe(200);
    const promo = await r.manage('POST', '/promotions', { code: 'TENOFF', type: 'percentage', percent: 10 });
    expect(promo.status).toBe(201);
    try {
      const res = await r.partner(
        'POST',
        '/orders',
        pickupOrder(r.menu, {
          orderMode: 1,
          deliveryZoneId: zoneId,
          deliveryAddress: { label: 'Home', addressLine: 'Torstrasse 5', ...INSIDE },
          promotionCode: 'tenoff',
        }),
      );
      expect(res.status).toBe(201);
      // subtotal 1700; discount 10 % = 170; goods 1530. Inclusive tax on the pizza's share
      // 1200 × 1530/1700 = 1080 → 1080 × 7/107 = 70.65… → 0.71; exclusive on the colas' share
      // 500 × 1530/1700 = 450 → 450 × 0.19 = 85.5 → 0.86 (half up). Service fee 50 + 2 % of 1530
      // = 50 + 30.6 → 81. Total 1530 + 86 + 250 + 81 = 1947.
      expect(res.body).toMatchObject({
        subtotal: 17,
        discountTotal: 1.7,
        taxTotal: 1.57,
        deliveryFee: 2.5,
        serviceFee: 0.81,
        grandTotal: 19.47,
      });
    } finally {
      await r.manage('PUT', '/service-fee', { fixed: 0, percent: 0 });
    }
  });

  it('pays the new price on the next order after a price change', async () => {
    const put = await r.manage('PUT', `/catalog/products/${r.menu.cola.id}`, {
      categoryId: (await r.manage('GET', `/catalog/products/${r.menu.cola.id}`)).body.categoryId,
      name: 'Cola',
      taxCategoryId: r.menu.drinks19,
      variants: [{ id: r.menu.cola.variant, name: '0.33 l', price: 3, isDefault: true }],
    });
    expect(put.status).toBe(200);
    await waitForCopy(cluster, r.tenantId, 'product', r.menu.cola.id, (state) => state.variants[0].priceMinor === 300);
    const res = await r.partner('POST', '/orders', pickupOrder(r.menu));
    expect(res.body.subtotal).toBe(18); // 12 + 2 × 3
  });
});

describe('idempotency and the external order id', () => {
  it('replays the same request with the same key, creating one order', async () => {
    const body = pickupOrder(r.menu);
    const key = randomUUID();
    const first = await r.partner('POST', '/orders', body, { 'idempotency-key': key });
    const again = await r.partner('POST', '/orders', body, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('creates exactly one order from ten concurrent requests with one key', async () => {
    const body = pickupOrder(r.menu);
    const key = randomUUID();
    const before = await countOrders();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => r.partner('POST', '/orders', body, { 'idempotency-key': key })),
    );
    const ids = new Set(results.filter((res) => res.status === 201).map((res) => res.body.orderId));
    expect(ids.size).toBe(1);
    expect(
      results.every(
        (res) => res.status === 201 || (res.status === 409 && res.body.code === 'idempotency.request_in_progress'),
      ),
    ).toBe(true);
    expect(await countOrders()).toBe(before + 1);
  });

  it('refuses an external order id already used under another key, and still answers the original key', async () => {
    const body = pickupOrder(r.menu);
    const key = randomUUID();
    const first = await r.partner('POST', '/orders', body, { 'idempotency-key': key });
    const conflict = await r.partner('POST', '/orders', body);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('tenancy.partner_api.external_order_id_conflict');
    expect((await r.partner('POST', '/orders', body, { 'idempotency-key': key })).body.orderId).toBe(
      first.body.orderId,
    );
  });

  it('lets another installation use the same external order id', async () => {
    const other = await connectedApp(cluster.gateway, ['Orders.Create'], [], {
      tenantId: r.tenantId,
      tenant: r.tenant,
    });
    const body = pickupOrder(r.menu, { externalOrderId: 'shared-ext-id' });
    expect((await r.partner('POST', '/orders', body)).status).toBe(201);
    expect((await r.partner('POST', '/orders', body, {}, other)).status).toBe(201);
  });
});

describe('expectedTotal', () => {
  it('refuses a wrong total with the computed figures, creates nothing, and accepts the corrected retry with the same key and external id', async () => {
    const key = randomUUID();
    const body = pickupOrder(r.menu);
    const before = await countOrders();
    const wrong = await r.partner('POST', '/orders', { ...body, expectedTotal: 17.5 }, { 'idempotency-key': key });
    expect(wrong.status).toBe(409);
    expect(wrong.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(wrong.body.code).toBe('tenancy.order.price_mismatch');
    expect(wrong.body.computed).toMatchObject({ currencyCode: 'EUR', grandTotal: expect.any(Number) });
    expect(await countOrders()).toBe(before);
    const right = await r.partner(
      'POST',
      '/orders',
      { ...body, expectedTotal: wrong.body.computed.grandTotal },
      { 'idempotency-key': key },
    );
    expect(right.status).toBe(201);
    expect(right.body.grandTotal).toBe(wrong.body.computed.grandTotal);
  });
});

describe('refused orders (400 with errors by field, nothing stored)', () => {
  const refused = async (overrides: Record<string, unknown>, lines?: unknown[]) => {
    const before = await countOrders();
    const res = await r.partner('POST', '/orders', pickupOrder(r.menu, { ...overrides, ...(lines ? { lines } : {}) }));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('request.invalid');
    expect(await countOrders()).toBe(before);
    return res.body.errors as Record<string, string[]>;
  };

  it('DineIn and CardOnline, and values outside the enumerations', async () => {
    expect(Object.keys(await refused({ orderMode: 3, paymentMethod: 3 }))).toEqual(['orderMode', 'paymentMethod']);
    expect(Object.keys(await refused({ orderMode: 9, paymentMethod: 0 }))).toEqual(['orderMode', 'paymentMethod']);
  });

  it('delivery fields: both required for Delivery, both absent for Pickup', async () => {
    expect(await refused({ orderMode: 1 })).toEqual({
      deliveryZoneId: ['is required'],
      deliveryAddress: ['is required'],
    });
    expect(
      Object.keys(
        await refused({ deliveryZoneId: zoneId, deliveryAddress: { label: null, addressLine: 'x', ...INSIDE } }),
      ),
    ).toEqual(['deliveryZoneId', 'deliveryAddress']);
  });

  it('the zone: outside the polygon, another branch’s, inactive, unknown, another tenant’s', async () => {
    const delivery = (zone: string, point = INSIDE) => ({
      orderMode: 1,
      deliveryZoneId: zone,
      deliveryAddress: { label: null, addressLine: 'Somewhere 1', ...point },
    });
    expect(await refused(delivery(zoneId, OUTSIDE))).toEqual({ deliveryAddress: ['lies outside the delivery zone'] });
    const hafenZone = await r.manage('POST', '/delivery-zones', {
      branchId: r.menu.otherBranchId,
      name: 'Hafen',
      geometry: MITTE_SQUARE,
      fee: 1,
    });
    expect(await refused(delivery(hafenZone.body.id))).toEqual({
      deliveryZoneId: ['is not a delivery zone of this branch'],
    });
    const inactive = await r.manage('POST', '/delivery-zones', {
      branchId: r.menu.branchId,
      name: 'Off',
      geometry: MITTE_SQUARE,
      fee: 1,
      isActive: false,
    });
    expect(await refused(delivery(inactive.body.id))).toEqual({ deliveryZoneId: ['is not active'] });
    expect(await refused(delivery(randomUUID()))).toEqual({
      deliveryZoneId: ['is not a delivery zone of this branch'],
    });
    const stranger = await restaurant(cluster);
    const theirs = await stranger.manage('POST', '/delivery-zones', {
      branchId: stranger.menu.branchId,
      name: 'Theirs',
      geometry: MITTE_SQUARE,
      fee: 1,
    });
    expect(await refused(delivery(theirs.body.id))).toEqual({
      deliveryZoneId: ['is not a delivery zone of this branch'],
    });
  });

  it('the zone minimum order', async () => {
    const small = [{ productId: r.menu.cola.id, variantId: r.menu.cola.variant, quantity: 1, modifierSelections: [] }];
    expect(
      await refused(
        {
          orderMode: 1,
          deliveryZoneId: zoneId,
          deliveryAddress: { label: null, addressLine: 'Torstrasse 5', ...INSIDE },
        },
        small,
      ),
    ).toEqual({
      lines: ["the subtotal is below this delivery zone's minimum order of 10 EUR"],
    });
  });

  it('branches: inactive, another tenant’s, unknown', async () => {
    expect(await refused({ branchId: r.menu.inactiveBranchId })).toEqual({
      branchId: ['is not an active branch of this restaurant'],
    });
    expect(await refused({ branchId: randomUUID() })).toEqual({
      branchId: ['is not an active branch of this restaurant'],
    });
  });

  it('a branch without an address or coordinates (active before catalog required them): 400 naming branchId, nothing stored', async () => {
    // Catalog lets an inactive branch lack them; ordering's copy of each is then made active, as an
    // active branch stored before the rule would be. (One branch per case: ordering caches a copied
    // branch until the tenant's catalog changes.)
    const address = { line1: 'Am Hafen 7', line2: null, city: 'Hamburg', postalCode: '20457', countryCode: 'DE' };
    const coordinates = { latitude: 53.5413, longitude: 9.9846 };
    const branches: string[] = [];
    for (const place of [{}, { address }, { coordinates }, { address, coordinates }]) {
      const created = await r.manage('POST', '/catalog/branches', { name: 'Harbour', isActive: false, ...place });
      expect(created.status).toBe(201);
      branches.push(created.body.id);
    }
    for (const id of branches) await waitForCopy(cluster, r.tenantId, 'branch', id);
    await cluster.db
      .collection<{ _id: string }>('catalog_copy')
      .updateMany(
        { _id: { $in: branches.map((id) => `${r.tenantId}:branch:${id}`) } },
        { $set: { 'state.isActive': true } },
      );
    const [nowhere, noCoordinates, noAddress, located] = branches as [string, string, string, string];
    for (const branchId of [nowhere, noCoordinates, noAddress])
      expect(await refused({ branchId })).toEqual({
        branchId: ['has no address or coordinates, so it cannot take orders'],
      });
    // With both, the same order is taken; its read has numbers for the pickup's coordinates.
    const taken = await r.partner('POST', '/orders', pickupOrder(r.menu, { branchId: located }));
    expect(taken.status).toBe(201);
    const read = await r.partner('GET', `/orders/${taken.body.orderId}`);
    expect(read.body.branch).toEqual({
      name: 'Harbour',
      address: 'Am Hafen 7, 20457 Hamburg, DE',
      latitude: 53.5413,
      longitude: 9.9846,
      externalLocationId: null,
    });
  });

  it('lines, with the path of each offending field, at every level of nesting', async () => {
    const m = r.menu;
    const cheese = { selectionId: selectionId(), modifierGroupId: m.toppings.id, modifierOptionId: m.toppings.cheese };
    const errors = await refused({}, [
      { productId: randomUUID(), variantId: m.pizza.large, quantity: 1, modifierSelections: [] },
      { productId: m.pizza.id, variantId: m.cola.variant, quantity: 1, modifierSelections: [] },
      {
        productId: m.pizza.id,
        variantId: m.pizza.large,
        quantity: 1,
        modifierSelections: [
          { selectionId: selectionId(), modifierGroupId: m.crust.id, modifierOptionId: m.crust.thin },
          cheese,
          {
            selectionId: selectionId(),
            modifierGroupId: m.cheeseType.id,
            modifierOptionId: m.crust.thick,
            parentSelectionId: cheese.selectionId,
          },
        ],
      },
      { productId: m.pizza.id, variantId: m.pizza.small, quantity: 1, modifierSelections: [] },
    ]);
    expect(errors).toEqual({
      'lines[0].productId': ['is not a product of this catalog'],
      'lines[1].variantId': ['is not a variant of this product'],
      'lines[2].modifierSelections[2].modifierOptionId': ['is not an option of this modifier group'],
      'lines[3].modifierSelections': ["the modifier group 'Crust' of this variant needs at least 1 selection"],
    });
  });

  it('shapes and limits: quantity, lines, phone, text lengths, unknown and server-owned fields', async () => {
    const line = { productId: r.menu.cola.id, variantId: r.menu.cola.variant, modifierSelections: [] };
    expect(Object.keys(await refused({}, [{ ...line, quantity: 0 }]))).toEqual(['lines[0].quantity']);
    expect(Object.keys(await refused({}, [{ ...line, quantity: 100 }]))).toEqual(['lines[0].quantity']);
    expect(Object.keys(await refused({}, []))).toEqual(['lines']);
    expect(
      Object.keys(
        await refused(
          {},
          Array.from({ length: 51 }, () => ({ ...line, quantity: 1 })),
        ),
      ),
    ).toEqual(['lines']);
    expect(Object.keys(await refused({ customerPhone: 'call me' }))).toEqual(['customerPhone']);
    expect(Object.keys(await refused({ customerName: 'x'.repeat(101) }))).toEqual(['customerName']);
    expect(Object.keys(await refused({ externalOrderId: 'x'.repeat(129) }))).toEqual(['externalOrderId']);
    expect(await refused({ grandTotal: 1, status: 6 })).toEqual({
      grandTotal: ['is computed by the service and cannot be submitted'],
      status: ['is computed by the service and cannot be submitted'],
    });
    expect(Object.keys(await refused({ expectedTotal: 17.951 }))).toEqual(['expectedTotal']);
    // The spec lists the address label as required (it may be null).
    expect(
      Object.keys(
        await refused({
          orderMode: 1,
          deliveryZoneId: zoneId,
          deliveryAddress: { addressLine: 'Torstrasse 5', ...INSIDE },
        }),
      ),
    ).toEqual(['deliveryAddress.label']);
  });

  it('unavailable items', async () => {
    const patch = await r.manage('PATCH', `/catalog/branches/${r.menu.branchId}/availability`, {
      modifierOptions: { [r.menu.crust.thick]: 1 },
    });
    expect(patch.status).toBe(200);
    await waitForCopy(
      cluster,
      r.tenantId,
      'availability',
      r.menu.branchId,
      (state) => state.modifierOptions[r.menu.crust.thick] === 1,
    );
    const errors = await refused({}, [
      {
        productId: r.menu.pizza.id,
        variantId: r.menu.pizza.small,
        quantity: 1,
        modifierSelections: [
          { selectionId: selectionId(), modifierGroupId: r.menu.crust.id, modifierOptionId: r.menu.crust.thick },
        ],
      },
    ]);
    expect(errors).toEqual({ 'lines[0].modifierSelections[0].modifierOptionId': ['is not available at this branch'] });
  });
});

describe('promotion codes', () => {
  it('unknown, not yet valid, expired, another branch, below the minimum, used up: 400 on promotionCode', async () => {
    const make = async (body: Record<string, unknown>) => {
      const res = await r.manage('POST', '/promotions', { type: 'fixed', amount: 1, ...body });
      expect(res.status).toBe(201);
    };
    await make({ code: 'LATER', validFrom: '2099-01-01T00:00:00Z' });
    await make({ code: 'OVER', validUntil: '2020-01-01T00:00:00Z' });
    await make({ code: 'HAFEN', branchIds: [r.menu.otherBranchId] });
    await make({ code: 'BIG', minimumSubtotal: 100 });
    await make({ code: 'ONCE', usageLimit: 1 });
    const codeErrors = async (code: string) => {
      const res = await r.partner('POST', '/orders', pickupOrder(r.menu, { promotionCode: code }));
      return res.status === 400 ? res.body.errors.promotionCode : res.status;
    };
    expect(await codeErrors('NOPE')).toEqual(['is not a promotion code of this restaurant']);
    expect(await codeErrors('LATER')).toEqual(['is not valid yet']);
    expect(await codeErrors('OVER')).toEqual(['has expired']);
    expect(await codeErrors('HAFEN')).toEqual(['is not valid at this branch']);
    expect(await codeErrors('BIG')).toEqual(['needs a higher subtotal']);
    expect(await codeErrors('ONCE')).toBe(201);
    expect(await codeErrors('ONCE')).toEqual(['has reached its usage limit']);
  });

  it('a fixed discount larger than the subtotal brings it to zero, never below', async () => {
    expect((await r.manage('POST', '/promotions', { code: 'HUGE', type: 'fixed', amount: 1000 })).status).toBe(201);
    const res = await r.partner('POST', '/orders', pickupOrder(r.menu, { promotionCode: 'HUGE' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ discountTotal: res.body.subtotal, taxTotal: 0, grandTotal: 0 });
  });
});
