import { randomUUID } from 'node:crypto';
import { MongoClient, type Db, type Document } from 'mongodb';
import { ensureIndexes, type InstallationOwner, type TenantOwner } from '@marketplace/store';
import {
  describeTimings,
  fillTo,
  growsWithData,
  methodOfCase,
  queryMethodsOf,
  stackEnv,
  timeLookups,
  uniqueName,
  type LookupCase,
  type LookupTiming,
} from '@marketplace/testing';
import type { CatalogCopyDoc } from '../src/adapters/catalog-copy-repository';
import { catalogCopyId } from '../src/domain/catalog-copy';
import type { DeliveryZoneDoc } from '../src/adapters/delivery-zones-repository';
import type { PromotionDoc } from '../src/adapters/promotions-repository';
import { orderingIndexes, orderingStore, type OrderingStore } from '../src/adapters/store';
import type { OrderDoc } from '../src/adapters/orders-repository';

// Every repository query of ordering, on the real engine, with its collections holding 1,000
// documents and then 20,000 (the extra ones belong to other tenants and installations): a query
// an index serves costs about the same at both sizes, a scan about 20 times more. Each case also
// checks its answer, so a case is a real query of the owner's data, not a miss that costs nothing.

/** A case, and what its answer must be (checked on one more run after the timings). */
interface Case extends LookupCase {
  readonly check: (result: unknown) => void;
}

const owner: TenantOwner = { tenantId: randomUUID() };
/** The tenant the inserts and deletes write for, so that the owner's lists stay as seeded. */
const writer: TenantOwner = { tenantId: randomUUID() };
const installation: InstallationOwner = { tenantId: owner.tenantId, installationId: randomUUID() };
/** Other owners: enough that each holds a handful of documents at 20,000. */
const OTHER_TENANTS = 2_000;
const otherTenant = (i: number) => `other-tenant-${i % OTHER_TENANTS}`;
/** Deletes and releases use one seeded document per run: 2 × (1 warm-up + 15), up to 2 × (1 + 5) more when timed again (timeLookups), plus the check. */
const POOL = 60;

let client: MongoClient;
let db: Db;
let store: OrderingStore;

beforeAll(async () => {
  client = new MongoClient(stackEnv().MONGO_URL, { retryWrites: false });
  await client.connect();
  db = client.db(uniqueName('it-ordering-repositories'));
  await ensureIndexes(db, orderingIndexes);
  store = orderingStore(db);
});

afterAll(async () => {
  await db?.dropDatabase().catch(() => undefined);
  await client?.close();
});

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000);

function order(tenantId: string, i: number, id: string = randomUUID()): OrderDoc {
  const line = (n: number) => ({
    productId: randomUUID(),
    productName: `Pizza Margherita ${n}`,
    variantId: randomUUID(),
    variantName: 'Large, 32 cm',
    quantity: 2,
    customerNote: 'Well done, please; no basil',
    variantPriceMinor: 1250,
    tax: { taxCategoryId: randomUUID(), name: 'Food (reduced)', ratePercent: 7, inclusive: true },
    modifiers: [0, 1].map((m) => ({
      selectionId: `s${m}`,
      parentSelectionId: null,
      modifierGroupId: randomUUID(),
      modifierGroupName: 'Extra toppings',
      modifierOptionId: randomUUID(),
      modifierOptionName: `Mozzarella di bufala ${m}`,
      priceMinor: 150,
    })),
    priced: { unitPriceMinor: 1550, lineTotalMinor: 3100, modifierTotalsMinor: [300, 300] },
  });
  return {
    _id: id,
    tenantId,
    branchId: `branch-${i % 7}`,
    orderNumber: String(1001 + i),
    status: i % 3 === 0 ? 2 : 1,
    paymentStatus: 1,
    orderMode: 1,
    paymentMethod: 1,
    source: {
      installationId: `installation-${i % 300}`,
      appId: randomUUID(),
      externalOrderId: `ext-${i}`,
      idempotencyKey: randomUUID(),
    },
    customer: {
      name: 'Erika Mustermann',
      phone: '+49 30 1234567',
      email: 'erika@example.com',
      notes: 'Ring twice, third floor on the left',
    },
    deliveryZoneId: randomUUID(),
    deliveryAddress: {
      label: 'Home',
      addressLine: 'Torstraße 101, 10119 Berlin',
      latitude: 52.529,
      longitude: 13.401,
      notes: 'Back entrance',
    },
    branch: {
      name: 'Pizzeria Mitte',
      address: 'Rosenthaler Str. 1, 10119 Berlin, DE',
      latitude: 52.527,
      longitude: 13.402,
      externalLocationId: null,
    },
    currencyCode: 'EUR',
    decimals: 2,
    lines: [line(1), line(2)],
    promotion: null,
    totals: {
      subtotalMinor: 6200,
      discountMinor: 0,
      inclusiveTaxMinor: 406,
      exclusiveTaxMinor: 0,
      taxTotalMinor: 406,
      deliveryFeeMinor: 250,
      serviceFeeMinor: 0,
      grandTotalMinor: 6450,
    },
    liveAssignment: null,
    deliveryRevision: 0,
    cancellation: null,
    history: [{ status: 'Pending', at: at(i), by: 'source' }],
    createdAt: at(i),
    updatedAt: at(i),
  };
}

function copied(tenantId: string, id: string, sequence: number): CatalogCopyDoc {
  return {
    _id: catalogCopyId({ tenantId }, 'product', id),
    tenantId,
    entity: 'product',
    sequence,
    deleted: false,
    state: {
      id,
      name: `Pizza Diavola ${sequence}`,
      description: 'Tomato, mozzarella, spicy salami, chili oil; baked in a wood-fired oven.',
      taxCategoryId: randomUUID(),
      variants: [0, 1, 2].map((v) => ({
        id: randomUUID(),
        name: ['Small', 'Medium', 'Large'][v],
        priceMinor: 900 + v * 200,
        modifierGroupIds: [randomUUID(), randomUUID()],
      })),
    },
  };
}

const SQUARE = {
  type: 'Polygon',
  coordinates: [
    [
      [13.38, 52.52],
      [13.42, 52.52],
      [13.42, 52.54],
      [13.4, 52.545],
      [13.38, 52.54],
      [13.38, 52.52],
    ],
  ],
};

function zone(tenantId: string, i: number, id: string = randomUUID()): DeliveryZoneDoc {
  return {
    _id: id,
    tenantId,
    branchId: `branch-${i % 3}`,
    name: `Zone ${String(i).padStart(5, '0')}`,
    geometryJson: JSON.stringify(SQUARE),
    isActive: true,
    feeMinor: 250,
    minimumOrderMinor: 1200,
    createdAt: at(i),
    updatedAt: at(i),
  };
}

function promotion(tenantId: string, i: number, id: string = randomUUID()): PromotionDoc {
  return {
    _id: id,
    tenantId,
    code: `SUMMER${i}`,
    description: 'Ten percent off every order over twenty euros, all summer long, at every branch.',
    effect: { kind: 'percentage', percent: 10 },
    minimumSubtotalMinor: 2000,
    validFrom: at(0),
    validUntil: at(100_000),
    branchIds: [randomUUID(), randomUUID()],
    usageLimit: 100,
    isActive: true,
    createdAt: at(i),
    updatedAt: at(i),
  };
}

/** Brings every collection to `total` documents; those added belong to other owners. */
async function growTo(total: number): Promise<void> {
  const c = <T extends Document = { _id: string } & Document>(name: string) => db.collection<T>(name);
  // In parallel: the engine writes each collection on its own.
  await Promise.all([
    fillTo(c<OrderDoc>('orders'), total, (i) => order(otherTenant(i), i)),
    fillTo(c('external_order_ids'), total, (i) => ({
      _id: `installation-${i % 3000}:ext-${i}`,
      orderId: randomUUID(),
      idempotencyKey: randomUUID(),
      createdAt: at(i),
    })),
    fillTo(c('order_numbers'), total, (i) => ({ _id: `${otherTenant(i)}:${1001 + i}`, orderId: randomUUID() })),
    fillTo(c('order_counters'), total, (i) => ({ _id: `counter-tenant-${i}`, last: 1010 + i })),
    fillTo(c<CatalogCopyDoc>('catalog_copy'), total, (i) => copied(otherTenant(i), randomUUID(), i)),
    fillTo(c<DeliveryZoneDoc>('delivery_zones'), total, (i) => zone(otherTenant(i), i)),
    fillTo(c<PromotionDoc>('promotions'), total, (i) => promotion(otherTenant(i), i)),
    fillTo(c('promotion_codes'), total, (i) => ({ _id: `${otherTenant(i)}:SUMMER${i}`, promotionId: randomUUID() })),
    fillTo(c('promotion_uses'), total, (i) => ({
      _id: `promotion-${i % 2000}:${i}`,
      tenantId: otherTenant(i),
      promotionId: `promotion-${i % 2000}`,
      orderId: randomUUID(),
    })),
    fillTo(c('tenant_settings'), total, (i) => ({
      _id: `settings-tenant-${i}`,
      serviceFee: { fixedMinor: 49, percent: 2 },
      updatedAt: at(i),
    })),
    fillTo(c('payment_notifications'), total, (i) => ({
      _id: `${otherTenant(i)}:evt_${i}`,
      tenantId: otherTenant(i),
      eventId: `evt_${i}`,
      orderId: randomUUID(),
      fingerprint: 'f',
      status: 200,
      body: { result: 'confirmed' },
      receivedAt: at(i),
    })),
  ]);
}

/** The owner's data the cases read, and pools for the cases that delete. */
async function seed() {
  const orders = [order(owner.tenantId, 1), order(owner.tenantId, 2), order(owner.tenantId, 3)];
  for (const o of orders) await store.orders.insertWithEvents(owner, o, [], o.createdAt);

  await store.orderClaims.claimExternalOrderId(installation, 'ext-seeded', {
    orderId: orders[0]!._id,
    idempotencyKey: 'key-1',
    createdAt: at(1),
  });
  await store.orderClaims.claimExternalOrderId(installation, 'ext-taken-over', {
    orderId: 'order-0',
    idempotencyKey: 'key-2',
    createdAt: at(1),
  });
  for (let k = 0; k < POOL; k++)
    await store.orderClaims.claimExternalOrderId(installation, `ext-release-${k}`, {
      orderId: `order-release-${k}`,
      idempotencyKey: 'key',
      createdAt: at(k),
    });
  await store.orderClaims.raiseOrderCounter(owner, 1010);

  const products = Array.from({ length: 5 }, (_, k) => copied(owner.tenantId, `product-${k}`, k + 1));
  for (const p of products) await store.catalogCopy.insertIfAbsent(owner, p);
  await store.catalogCopy.raiseSequence(owner, 5);

  const zones = [zone(owner.tenantId, 0), zone(owner.tenantId, 1), zone(owner.tenantId, 2)];
  for (const z of zones) await store.zones.insert(owner, z);
  for (let k = 0; k < POOL; k++) await store.zones.insert(writer, zone(writer.tenantId, 100 + k, `zone-delete-${k}`));

  const promotions = [promotion(owner.tenantId, 1), promotion(owner.tenantId, 2)];
  for (const p of promotions) {
    await store.promotions.insert(owner, p);
    await store.promotions.claimCode(owner, p.code, p._id);
  }
  for (let k = 0; k < POOL; k++) {
    await store.promotions.insert(writer, promotion(writer.tenantId, 100 + k, `promotion-delete-${k}`));
    await store.promotions.claimCode(owner, `RELEASE${k}`, `promotion-release-${k}`);
  }
  for (let slot = 1; slot <= 3; slot++)
    await store.promotionUses.takeSlot(owner, promotions[0]!._id, slot, randomUUID());

  await store.settings.saveServiceFee(owner, { fixedMinor: 49, percent: 2 }, at(0));
  await store.paymentNotifications.save(owner, {
    eventId: 'evt_seeded',
    orderId: orders[0]!._id,
    fingerprint: 'seeded',
    status: 200,
    body: { result: 'confirmed' },
    receivedAt: at(0),
  });
  return { orders, products, zones, promotions };
}

function cases(seeded: Awaited<ReturnType<typeof seed>>): Case[] {
  const { orders, products, zones, promotions } = seeded;
  let n = 0; // makes every write's key fresh
  const next = () => ++n;
  const pool = { claim: 0, zone: 0, promotion: 0, code: 0 };
  const take = (kind: keyof typeof pool) => pool[kind]++;
  let holder = 'order-0';
  const ordersRepo = store.orders;
  const claims = store.orderClaims;
  const copy = store.catalogCopy;
  const promos = store.promotions;

  return [
    {
      name: "OrdersRepository.findById: the tenant's order",
      run: () => ordersRepo.findById(owner, orders[1]!._id),
      check: (o) => expect((o as OrderDoc)._id).toBe(orders[1]!._id),
    },
    {
      name: "OrdersRepository.listRecent: the tenant's newest orders",
      run: () => ordersRepo.listRecent(owner, { limit: 50 }),
      check: (list) =>
        expect((list as OrderDoc[]).map((o) => o._id)).toEqual([orders[2]!._id, orders[1]!._id, orders[0]!._id]),
    },
    {
      name: 'OrdersRepository.listRecent: of one status',
      run: () => ordersRepo.listRecent(owner, { status: 2, limit: 50 }),
      check: (list) => expect((list as OrderDoc[]).map((o) => o._id)).toEqual([orders[2]!._id]),
    },
    {
      name: 'OrdersRepository.insertWithEvents: a new order',
      run: () => ordersRepo.insertWithEvents(writer, order(writer.tenantId, 10, `order-new-${next()}`), [], at(10)),
      check: (written) => expect((written as OrderDoc | null)?.tenantId).toBe(writer.tenantId),
    },
    {
      name: 'OrdersRepository.setLiveAssignment: a newer revision',
      run: () =>
        ordersRepo.setLiveAssignment(
          owner,
          orders[0]!._id,
          {
            assignmentId: randomUUID(),
            installationId: randomUUID(),
            status: 'Assigned',
            pickup: {
              branchId: randomUUID(),
              name: 'Pizzeria Mitte',
              address: 'Rosenthaler Str. 1, 10119 Berlin, DE',
              latitude: 52.527,
              longitude: 13.402,
              externalLocationId: null,
            },
            revision: next(),
          },
          n,
        ),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'OrdersRepository.updateWithEvents: one order',
      run: () => ordersRepo.updateWithEvents(owner, orders[0]!._id, { updatedAt: at(next()) }, [], at(n)),
      check: (ok) => expect(ok).toBe(true),
    },

    {
      name: 'OrderClaimsRepository.claimExternalOrderId: a new external id',
      run: () =>
        claims.claimExternalOrderId(installation, `ext-new-${next()}`, {
          orderId: randomUUID(),
          idempotencyKey: 'k',
          createdAt: at(n),
        }),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'OrderClaimsRepository.findExternalOrderClaim: a claimed id',
      run: () => claims.findExternalOrderClaim(installation, 'ext-seeded'),
      check: (c) => expect(c).toMatchObject({ orderId: orders[0]!._id }),
    },
    {
      name: 'OrderClaimsRepository.takeOverExternalOrderClaim: from its holder',
      run: async () => {
        const to = `order-${next()}`;
        const taken = await claims.takeOverExternalOrderClaim(installation, 'ext-taken-over', holder, {
          orderId: to,
          idempotencyKey: 'k',
          createdAt: at(n),
        });
        if (taken) holder = to;
        return taken;
      },
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'OrderClaimsRepository.releaseExternalOrderClaim: a held id',
      run: () => {
        const k = take('claim');
        return claims.releaseExternalOrderClaim(installation, `ext-release-${k}`, `order-release-${k}`);
      },
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'OrderClaimsRepository.claimOrderNumber: a new number',
      run: () => claims.claimOrderNumber(owner, 5000 + next(), randomUUID()),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: "OrderClaimsRepository.findOrderCounter: the tenant's counter",
      run: () => claims.findOrderCounter(owner),
      check: (last) => expect(last).toBeGreaterThanOrEqual(1010),
    },
    {
      name: "OrderClaimsRepository.raiseOrderCounter: the tenant's counter",
      run: async () => {
        const to = 2000 + next();
        await claims.raiseOrderCounter(owner, to);
        return { to, now: await db.collection('order_counters').findOne({ _id: owner.tenantId as never }) };
      },
      check: (r) => expect((r as { to: number; now: { last: number } }).now.last).toBe((r as { to: number }).to),
    },

    {
      name: 'CatalogCopyRepository.replaceIfOlder: a held resource',
      run: () => copy.replaceIfOlder(owner, { ...products[0]!, sequence: 100 + next() }),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'CatalogCopyRepository.insertIfAbsent: a new resource',
      run: () => copy.insertIfAbsent(owner, copied(owner.tenantId, `product-new-${next()}`, 1)),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: "CatalogCopyRepository.raiseSequence: the tenant's sequence",
      run: async () => {
        const to = 1000 + next();
        await copy.raiseSequence(owner, to);
        return { to, now: await copy.findSequence(owner) };
      },
      check: (r) => expect((r as { now: number }).now).toBe((r as { to: number }).to),
    },
    {
      name: "CatalogCopyRepository.findSequence: the tenant's sequence",
      run: () => copy.findSequence(owner),
      check: (s) => expect(s).toBeGreaterThanOrEqual(5),
    },
    {
      name: 'CatalogCopyRepository.findByIds: five resources and one unknown',
      run: () => copy.findByIds(owner, [...products.map((p) => p._id), catalogCopyId(owner, 'product', 'unknown')]),
      check: (found) =>
        expect([...(found as Map<string, CatalogCopyDoc>).keys()].sort()).toEqual(products.map((p) => p._id).sort()),
    },

    {
      name: "DeliveryZonesRepository.findById: the tenant's zone",
      run: () => store.zones.findById(owner, zones[0]!._id),
      check: (z) => expect((z as DeliveryZoneDoc)._id).toBe(zones[0]!._id),
    },
    {
      name: "DeliveryZonesRepository.listByName: the tenant's zones",
      run: () => store.zones.listByName(owner),
      check: (list) => expect((list as DeliveryZoneDoc[]).map((z) => z._id)).toEqual(zones.map((z) => z._id)),
    },
    {
      name: "DeliveryZonesRepository.listByName: one branch's zones",
      run: () => store.zones.listByName(owner, 'branch-1'),
      check: (list) => expect((list as DeliveryZoneDoc[]).map((z) => z._id)).toEqual([zones[1]!._id]),
    },
    {
      name: 'DeliveryZonesRepository.insert: a new zone',
      run: () => store.zones.insert(writer, zone(writer.tenantId, 7, `zone-new-${next()}`)).then(() => n),
      check: (k) => expect(k).toBeGreaterThan(0),
    },
    {
      name: 'DeliveryZonesRepository.replace: one zone',
      run: () => store.zones.replace(owner, { ...zones[1]!, updatedAt: at(next()) }),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'DeliveryZonesRepository.delete: one zone',
      run: () => store.zones.delete(writer, `zone-delete-${take('zone')}`),
      check: (ok) => expect(ok).toBe(true),
    },

    {
      name: "PromotionsRepository.findById: the tenant's promotion",
      run: () => promos.findById(owner, promotions[0]!._id),
      check: (p) => expect((p as PromotionDoc)._id).toBe(promotions[0]!._id),
    },
    {
      name: "PromotionsRepository.findByCode: the tenant's code",
      run: () => promos.findByCode(owner, promotions[1]!.code),
      check: (p) => expect((p as PromotionDoc)._id).toBe(promotions[1]!._id),
    },
    {
      name: "PromotionsRepository.listByCode: the tenant's promotions",
      run: () => promos.listByCode(owner),
      check: (list) =>
        expect((list as PromotionDoc[]).map((p) => p.code)).toEqual(promotions.map((p) => p.code).sort()),
    },
    {
      name: 'PromotionsRepository.insert: a new promotion',
      run: () => promos.insert(writer, promotion(writer.tenantId, 7, `promotion-new-${next()}`)).then(() => n),
      check: (k) => expect(k).toBeGreaterThan(0),
    },
    {
      name: 'PromotionsRepository.replace: one promotion',
      run: () => promos.replace(owner, { ...promotions[1]!, updatedAt: at(next()) }),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'PromotionsRepository.delete: one promotion',
      run: () => promos.delete(writer, `promotion-delete-${take('promotion')}`),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'PromotionsRepository.claimCode: a new code',
      run: () => promos.claimCode(owner, `NEW${next()}`, randomUUID()),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'PromotionsRepository.releaseCode: a held code',
      run: () => {
        const k = take('code');
        return promos.releaseCode(owner, `RELEASE${k}`, `promotion-release-${k}`);
      },
      check: (ok) => expect(ok).toBe(true),
    },

    {
      name: "PromotionUsesRepository.countUses: one promotion's uses",
      run: () => store.promotionUses.countUses(owner, promotions[0]!._id),
      check: (count) => expect(count).toBe(3),
    },
    {
      name: 'PromotionUsesRepository.takeSlot: a free slot',
      run: () => store.promotionUses.takeSlot(owner, promotions[1]!._id, next(), randomUUID()),
      check: (ok) => expect(ok).toBe(true),
    },

    {
      name: "TenantSettingsRepository.findServiceFee: the tenant's fee",
      run: () => store.settings.findServiceFee(owner),
      check: (fee) => expect(fee).toEqual({ fixedMinor: 49, percent: 2 }),
    },
    {
      name: "TenantSettingsRepository.saveServiceFee: the tenant's fee",
      run: () => store.settings.saveServiceFee(owner, { fixedMinor: 49, percent: 2 }, at(next())).then(() => n),
      check: (k) => expect(k).toBeGreaterThan(0),
    },

    {
      name: "PaymentNotificationsRepository.find: the tenant's event",
      run: () => store.paymentNotifications.find(owner, 'evt_seeded'),
      check: (stored) => expect(stored).toEqual({ fingerprint: 'seeded', status: 200, body: { result: 'confirmed' } }),
    },
    {
      name: 'PaymentNotificationsRepository.save: a new event',
      run: () =>
        store.paymentNotifications.save(owner, {
          eventId: `evt_new_${next()}`,
          orderId: orders[0]!._id,
          fingerprint: 'f',
          status: 200,
          body: {},
          receivedAt: at(n),
        }),
      check: (first) => expect(first).toBeUndefined(),
    },
  ];
}

describe('ordering repositories', () => {
  let all: Case[];
  let timings: LookupTiming[];

  beforeAll(async () => {
    all = cases(await seed());
    timings = await timeLookups(all, growTo);
    console.log(describeTimings(timings));
  }, 400_000); // about a minute; longer only when a query scans (20,000 orders take a second each time)

  it('cover every query method of every repository', () => {
    const methods = Object.values(store).flatMap((repository: object) => queryMethodsOf(repository));
    expect(new Set(all.map((c) => methodOfCase(c.name)))).toEqual(new Set(methods));
  });

  it("answer each case with the owner's data", async () => {
    for (const c of all) c.check(await c.run());
    // Another owner finds nothing of this one's.
    const stranger = { tenantId: randomUUID() };
    const [newest] = await store.orders.listRecent(owner, { limit: 1 });
    expect(await store.orders.findById(stranger, newest!._id)).toBeUndefined();
    expect(await store.orders.listRecent(stranger, { limit: 50 })).toEqual([]);
    expect(await store.promotionUses.countUses(stranger, 'x')).toBe(0);
    expect(await store.paymentNotifications.find(stranger, 'evt_seeded')).toBeUndefined();
  });

  it('stay index lookups as the data grows twentyfold', () => {
    if (timings.some(growsWithData))
      throw new Error(`lookups that grow with the data (SCAN) need an index:\n${describeTimings(timings)}`);
  });
});
