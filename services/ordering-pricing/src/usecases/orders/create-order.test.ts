import type { PartnerIdentity } from '@marketplace/identity';
import type { CatalogCopyDoc } from '../../adapters/catalog-copy-repository';
import type { ExternalOrderClaimDoc } from '../../adapters/order-claims-repository';
import type { PromotionDoc } from '../../adapters/promotions-repository';
import { catalogCopyId, type CopiedBranch, type CopiedEntity, type CopiedProduct } from '../../domain/catalog-copy';
import type { Order } from '../../domain/order';
import type { OrderRequest } from '../../domain/order-request';
import type { OrderingContext, TenantScope } from '../context';
import type { CopyReader, OrderingRepositories } from '../ports';
import { createOrder } from './create-order';

// Creating an order with its ports faked in memory: the claim of the external id decides between a
// new order, the same order for a repeat and a conflict; a price mismatch or a used-up promotion
// stores nothing, and the used-up promotion gives the external id back.

const TENANT: TenantScope = { tenantId: 'tenant-1', currencyCode: 'EUR', decimals: 2 };
const NOW = new Date('2026-01-10T12:00:00Z');

const BRANCH: CopiedBranch = {
  id: 'b1',
  name: 'Mitte',
  isActive: true,
  externalLocationId: null,
  address: { line1: 'Torstrasse 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
  coordinates: { latitude: 52.53, longitude: 13.4 },
};
const PIZZA: CopiedProduct = {
  id: 'p1',
  name: 'Pizza',
  taxCategoryId: null,
  variants: [{ id: 'v1', name: 'Large', priceMinor: 1200, modifierGroupIds: [] }],
};
const LIMITED: PromotionDoc = {
  _id: 'promo-1',
  tenantId: TENANT.tenantId,
  code: 'LAST',
  description: null,
  effect: { kind: 'fixed', amountMinor: 200 },
  minimumSubtotalMinor: 0,
  validFrom: null,
  validUntil: null,
  branchIds: null,
  usageLimit: 1,
  isActive: true,
  createdAt: NOW,
  updatedAt: NOW,
};

const request = (extra: Partial<OrderRequest> = {}): OrderRequest => ({
  externalOrderId: 'ext-1',
  branchId: 'b1',
  orderMode: 2,
  paymentMethod: 1,
  customerName: 'Ada',
  customerPhone: '+49 30 1234567',
  lines: [{ productId: 'p1', variantId: 'v1', quantity: 2, modifierSelections: [] }],
  ...extra,
});

const caller = (idempotencyKey: string) =>
  ({
    kind: 'partner',
    tenantId: TENANT.tenantId,
    installationId: 'inst-1',
    appId: 'app-1',
    idempotencyKey,
  }) as PartnerIdentity;

/** The ports createOrder uses, held in memory; `written` and `flushed` record what it did. */
/** A copy reader over a map; its session is itself. */
function reader(load: (ids: string[]) => Map<string, CatalogCopyDoc | null>): CopyReader {
  const r: CopyReader = { load: async (_owner, ids) => load(ids), session: () => r };
  return r;
}

function fakes(promotions: PromotionDoc[] = []) {
  const copy = new Map<string, CatalogCopyDoc>();
  const hold = (entity: CopiedEntity, state: { id: string }) =>
    copy.set(catalogCopyId(TENANT, entity, state.id), {
      _id: catalogCopyId(TENANT, entity, state.id),
      tenantId: TENANT.tenantId,
      entity,
      sequence: 1,
      deleted: false,
      state: { ...state },
    });
  hold('branch', BRANCH);
  hold('product', PIZZA);
  const orders = new Map<string, Order>();
  const claims = new Map<string, ExternalOrderClaimDoc>();
  const slots = new Set<string>();
  const flushed: string[] = [];
  const store = {
    orders: {
      findById: async (_owner, id) => orders.get(id),
      insertWithEvents: async (_owner, order) => {
        if (orders.has(order._id)) return null;
        orders.set(order._id, order);
        return order;
      },
    },
    orderClaims: {
      claimExternalOrderId: async (_owner, externalId, claim) => {
        if (claims.has(externalId)) return false;
        claims.set(externalId, { _id: externalId, ...claim });
        return true;
      },
      findExternalOrderClaim: async (_owner, externalId) => claims.get(externalId),
      releaseExternalOrderClaim: async (_owner, externalId, orderId) =>
        claims.get(externalId)?.orderId === orderId && claims.delete(externalId),
    },
    zones: { findById: async () => undefined },
    promotions: { findByCode: async (_owner, code) => promotions.find((p) => p.code === code) },
    promotionUses: {
      countUses: async (_owner, promotionId) => [...slots].filter((s) => s.startsWith(promotionId)).length,
      takeSlot: async (_owner, promotionId, slot) => {
        const key = `${promotionId}:${slot}`;
        if (slots.has(key)) return false;
        slots.add(key);
        return true;
      },
    },
    settings: { findServiceFee: async () => undefined },
  } as Partial<{ [K in keyof OrderingRepositories]: Partial<OrderingRepositories[K]> }>;
  let numbers = 1000;
  const ctx = {
    store: store as OrderingRepositories,
    catalogCopy: reader((ids) => new Map(ids.map((id) => [id, copy.get(id) ?? null]))),
    orderNumbers: { claim: async () => String(++numbers) },
    orderLock: { run: (_id, work) => work() },
    orderOutbox: {
      flush: async (orderId) => void flushed.push(orderId),
      flushInserted: async (inserted) => void flushed.push(inserted._id),
    },
    sealDropoff: (order) => (order.deliveryAddress ? `sealed:${order._id}` : undefined),
    now: () => NOW,
  } as Pick<
    OrderingContext,
    'store' | 'catalogCopy' | 'orderNumbers' | 'orderLock' | 'orderOutbox' | 'sealDropoff' | 'now'
  >;
  return { ctx: ctx as OrderingContext, orders, claims, flushed };
}

describe('creating an order', () => {
  it('prices it, stores it Pending with its number and publishes its event', async () => {
    const { ctx, orders, flushed } = fakes();
    const order = await createOrder(ctx, caller('key-1'), TENANT, request());
    expect(order).toMatchObject({ orderNumber: '1001', status: 1, paymentStatus: 1, branch: { name: 'Mitte' } });
    expect(order.totals).toMatchObject({ subtotalMinor: 2400, grandTotalMinor: 2400 });
    expect([...orders.values()]).toEqual([order]);
    expect(flushed).toEqual([order._id]);
  });

  it('answers a repeat of the request (same key) with the same order, and another key with 409', async () => {
    const { ctx, orders } = fakes();
    const first = await createOrder(ctx, caller('key-1'), TENANT, request());
    expect(await createOrder(ctx, caller('key-1'), TENANT, request())).toEqual(first);
    await expect(createOrder(ctx, caller('key-2'), TENANT, request())).rejects.toMatchObject({
      code: 'tenancy.partner_api.external_order_id_conflict',
    });
    expect(orders.size).toBe(1);
  });

  it('refuses an expected total that differs from the computed one, storing nothing', async () => {
    const { ctx, orders, claims } = fakes();
    await expect(createOrder(ctx, caller('key-1'), TENANT, request({ expectedTotal: 20 }))).rejects.toMatchObject({
      code: 'tenancy.order.price_mismatch',
      details: { computed: { subtotal: 24, grandTotal: 24 } },
    });
    expect(orders.size).toBe(0);
    expect(claims.size).toBe(0);
  });

  it('refuses a promotion used up, and gives the external id back for another try', async () => {
    const { ctx, orders, claims } = fakes([LIMITED]);
    const first = await createOrder(ctx, caller('key-1'), TENANT, request({ promotionCode: 'last' }));
    expect(first.totals.discountMinor).toBe(200);
    const second = request({ externalOrderId: 'ext-2', promotionCode: 'LAST' });
    await expect(createOrder(ctx, caller('key-2'), TENANT, second)).rejects.toMatchObject({
      code: 'request.invalid',
      fieldErrors: { promotionCode: ['has reached its usage limit'] },
    });
    expect(orders.size).toBe(1);
    expect(claims.has('ext-2')).toBe(false);
  });

  it('reports every problem of the request at once, before anything is claimed', async () => {
    const { ctx, claims } = fakes();
    const bad = request({
      branchId: 'b2',
      promotionCode: 'NONE',
      lines: [{ productId: 'p9', variantId: 'v1', quantity: 1, modifierSelections: [] }],
    });
    await expect(createOrder(ctx, caller('key-1'), TENANT, bad)).rejects.toMatchObject({
      code: 'request.invalid',
      fieldErrors: {
        branchId: ['is not an active branch of this restaurant'],
        promotionCode: ['is not a promotion code of this restaurant'],
      },
    });
    expect(claims.size).toBe(0);
  });
});
