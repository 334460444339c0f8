import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient, type Db, type Document } from 'mongodb';
import { ensureIndexes } from '@marketplace/store';
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
import type { PlatformApiKeyDoc } from '../src/adapters/api-keys-repository';
import type { DeliveryDoc } from '../src/adapters/deliveries-repository';
import type { DriverDoc } from '../src/adapters/drivers-repository';
import type { Driver } from '../src/domain/driver';
import type { PlatformAccountDoc, SealedWebhookSecret } from '../src/adapters/platform-accounts-repository';
import { NO_TRACKING } from '../src/domain/delivery';
import { SecretBox } from '@marketplace/identity';
import { providerIndexes, providerStore, type ProviderStore } from '../src/adapters/store';
import type { AccountOwner, PlatformAccount } from '../src/domain/platform-account';

// Every repository query of provider-delivery, on the real engine, with its collections holding
// 1,000 documents and then 20,000 (the extra ones other accounts'): a query an index serves costs
// about the same at both sizes, a scan about 20 times more. Each case checks its answer too.

/**
 * Left out of the timing: the administrators' list of every account (at most 1,000, oldest first).
 * The local engine sorts and limits after reading every candidate, so no index makes "the first
 * 1,000 of all" cheaper there; on MongoDB 7 the `created` index serves the sort and the limit.
 * Accounts are platforms, a handful per deployment; the list is an administrator's page. Its
 * answer is still checked below.
 */
const NOT_TIMED = ['PlatformAccountsRepository.listAll'];

interface Case extends LookupCase {
  readonly check: (result: unknown) => void;
}

const owner: AccountOwner = { accountId: randomUUID() };
const OTHERS = 2_000;
const otherAccount = (i: number) => `other-account-${i % OTHERS}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000);
const box = new SecretBox(randomBytes(32));

let client: MongoClient;
let db: Db;
let store: ProviderStore;

beforeAll(async () => {
  client = new MongoClient(stackEnv().MONGO_URL, { retryWrites: false });
  await client.connect();
  db = client.db(uniqueName('it-provider-repositories'));
  await ensureIndexes(db, providerIndexes);
  store = providerStore(db);
});

afterAll(async () => {
  await db?.dropDatabase().catch(() => undefined);
  await client?.close();
});

const square = [
  [13.3, 52.45],
  [13.5, 52.45],
  [13.5, 52.58],
  [13.3, 52.58],
  [13.3, 52.45],
] as [number, number][];

const account = (id: string, i: number): PlatformAccount => ({
  id,
  name: `Platform ${i}`,
  webhookUrl: 'https://platform.example.com/callbacks',
  capabilities: {
    supportsPolling: true,
    supportsReturnToOrigin: true,
    supportsProofOfDelivery: false,
    supportsScheduledDelivery: false,
    supportsUpdates: true,
    supportsCancellation: true,
  },
  serviceArea: { type: 'Polygon', coordinates: [square] },
  rateLimit: { requestsPerMinute: 600 },
  simulator: { enabled: false, drivers: 0, timeScale: 1 },
  eventTypes: ['delivery.accepted', 'delivery.delivered', 'driver.arrived_at_pickup'],
  createdAt: at(i),
  updatedAt: at(i),
});

const accountDoc = (i: number): PlatformAccountDoc => {
  const { id, serviceArea, ...rest } = account(randomUUID(), i);
  return { _id: id, ...rest, serviceAreaJson: JSON.stringify(serviceArea), webhookSecretSealed: 'v1.a.b.c' };
};
const keyDoc = (accountId: string, i: number): PlatformApiKeyDoc => ({
  _id: `pdk_${randomBytes(16).toString('base64url')}`,
  accountId,
  hash: randomBytes(32).toString('base64url'),
  createdAt: at(i),
  expiresAt: null,
  revokedAt: null,
});
const driverDoc = (accountId: string, i: number, id: string = randomUUID()): DriverDoc => ({
  _id: id,
  accountId,
  name: `Driver ${i}`,
  phone: '+49 170 5550101',
  vehicle: 'bicycle',
  shift: null,
  online: i % 2 === 0,
  position: { lat: 52.5, lng: 13.4, at: at(i) },
  activeDeliveryId: i % 3 === 0 ? randomUUID() : null,
  offer: null,
  simulated: false,
  tokenId: `pdd_${randomBytes(16).toString('base64url')}`,
  tokenHash: randomBytes(32).toString('base64url'),
  createdAt: at(i),
  updatedAt: at(i),
});
const driverOf = ({ _id, tokenId: _t, tokenHash: _h, ...rest }: DriverDoc): Driver => ({ id: _id, ...rest });

const deliveryDoc = (accountId: string, i: number, id: string = randomUUID()): DeliveryDoc => ({
  _id: id,
  accountId,
  idempotencyKey: `key-${id}`,
  fingerprint: 'f'.repeat(64),
  accepted: true,
  rejectionReason: null,
  callbackSource: 'none',
  callbackUrlSealed: null,
  order: {
    platformReference: `ref-${id}`,
    pickupAddress: 'Pickup 1',
    pickupLat: 52.5,
    pickupLng: 13.4,
    customerName: 'Ada',
    customerPhone: '+49 30 1',
    customerEmail: null,
    dropoffAddress: 'Dropoff 2',
    dropoffLat: 52.51,
    dropoffLng: 13.41,
    paymentMethod: 'card',
    amountMinor: 1_000,
    deliveryFeeMinor: null,
    currency: 'EUR',
    notes: null,
    preparationTimeMinutes: 10,
    scheduledDeliveryAtUtc: null,
  },
  status: 'driver_assigned',
  statusEventTimeUtc: at(i),
  tracking: NO_TRACKING(at(i)),
  lastSentLocation: null,
  returnReasonCode: null,
  timeScale: 1,
  trackingToken: `trk_${randomBytes(16).toString('base64url')}`,
  driverId: null,
  offers: [],
  dispatchAt: null,
  failureReason: null,
  version: 1,
  createdAt: at(i),
  updatedAt: at(i),
});

async function growTo(total: number): Promise<void> {
  const c = <T extends Document>(name: string) => db.collection<T>(name);
  await Promise.all([
    fillTo(c<PlatformAccountDoc>('platform_accounts'), total, (i) => accountDoc(i)),
    fillTo(c<PlatformApiKeyDoc>('platform_api_keys'), total, (i) => keyDoc(otherAccount(i), i)),
    fillTo(c<DeliveryDoc>('deliveries'), total, (i) => deliveryDoc(otherAccount(i), i)),
    fillTo(c<DriverDoc>('drivers'), total, (i) => driverDoc(otherAccount(i), i)),
  ]);
}

async function seed() {
  const context = `platform-account:${owner.accountId}:webhook-secret`;
  await store.accounts.insert(account(owner.accountId, 1), box.seal('pwhsec_test', context));
  const keys = [keyDoc(owner.accountId, 1), keyDoc(owner.accountId, 2)];
  for (const { _id, accountId: _, ...rest } of keys) await store.apiKeys.insert(owner, { keyId: _id, ...rest });
  const deliveries = [deliveryDoc(owner.accountId, 1), deliveryDoc(owner.accountId, 2)];
  Object.assign(deliveries[1]!, { dispatchAt: at(2), dispatching: true }); // due for dispatch
  await db.collection<DeliveryDoc>('deliveries').insertMany(deliveries);
  const simulated = { ...account(randomUUID(), 2), simulator: { enabled: true, drivers: 3, timeScale: 20 } };
  await store.accounts.insert(simulated, 'v1.a.b.c');
  // Two drivers: one free and online (offers, positions), one whose token is replaced.
  const drivers = [driverDoc(owner.accountId, 2), driverDoc(owner.accountId, 4)];
  drivers[0]!.activeDeliveryId = null;
  for (const d of drivers) await store.drivers.insert(driverOf(d), d.tokenId, d.tokenHash);
  return { keys, deliveries, context, drivers, simulated };
}

function cases({ keys, deliveries, context, drivers, simulated }: Awaited<ReturnType<typeof seed>>): Case[] {
  let n = 0;
  return [
    {
      name: 'PlatformAccountsRepository.insert: a new account',
      run: () => store.accounts.insert(account(randomUUID(), 5), 'v1.a.b.c'),
      check: () => undefined,
    },
    {
      name: 'PlatformAccountsRepository.find: the account',
      run: () => store.accounts.find(owner),
      check: (a) => expect((a as PlatformAccount).serviceArea.type).toBe('Polygon'),
    },
    {
      name: 'PlatformAccountsRepository.update: a new name',
      run: () => store.accounts.update(owner, { name: `Renamed ${++n}` }, at(n)),
      check: (a) => expect((a as PlatformAccount).name).toMatch(/^Renamed/),
    },
    {
      name: 'PlatformAccountsRepository.replaceWebhookSecret: a new sealed secret',
      run: () => store.accounts.replaceWebhookSecret(owner, box.seal('pwhsec_test', context), at(1), []),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'PlatformAccountsRepository.findSealedWebhookSecret: opens to the secret',
      run: () => store.accounts.findSealedWebhookSecret(owner),
      check: (stored) => expect(box.open((stored as SealedWebhookSecret).sealed, context)).toBe('pwhsec_test'),
    },
    {
      name: 'PlatformAccountsRepository.findPublishing: the sealed secret and the chosen event types',
      run: () => store.accounts.findPublishing(owner),
      check: (found) => {
        const { secret, eventTypes } = found as { secret: SealedWebhookSecret; eventTypes: string[] };
        expect(box.open(secret.sealed, context)).toBe('pwhsec_test');
        expect(eventTypes).toEqual(['delivery.accepted', 'delivery.delivered', 'driver.arrived_at_pickup']);
      },
    },
    {
      name: 'PlatformAccountsRepository.listSimulated: the accounts with the simulator on',
      run: () => store.accounts.listSimulated(),
      check: (list) => expect((list as PlatformAccount[]).map((a) => a.id)).toContain(simulated.id),
    },
    {
      name: 'ApiKeysRepository.insert: a new key',
      run: () => {
        const { _id, accountId: _, ...rest } = keyDoc(owner.accountId, 10 + ++n);
        return store.apiKeys.insert(owner, { keyId: _id, ...rest });
      },
      check: () => undefined,
    },
    {
      name: 'ApiKeysRepository.findByIdAcrossAccounts: authentication',
      run: () => store.apiKeys.findByIdAcrossAccounts(keys[0]!._id),
      check: (k) => expect(k).toMatchObject({ keyId: keys[0]!._id, accountId: owner.accountId }),
    },
    {
      name: "ApiKeysRepository.find: the account's key",
      run: () => store.apiKeys.find(owner, keys[1]!._id),
      check: (k) => expect(k).toMatchObject({ keyId: keys[1]!._id }),
    },
    {
      name: "ApiKeysRepository.listForAccount: the account's keys",
      run: () => store.apiKeys.listForAccount(owner),
      check: (list) => expect((list as unknown[]).length).toBeGreaterThanOrEqual(2),
    },
    {
      name: 'ApiKeysRepository.revoke: a key already revoked changes nothing',
      run: () => store.apiKeys.revoke(owner, keys[1]!._id, at(3)),
      check: () => undefined,
    },
    {
      name: 'ApiKeysRepository.expireOthers: a rotation',
      run: () => store.apiKeys.expireOthers(owner, keys[0]!._id, at(100_000)),
      check: () => undefined,
    },
    {
      name: "DeliveriesRepository.find: the account's delivery",
      run: () => store.deliveries.find(owner, deliveries[0]!._id),
      check: (d) => expect(d).toMatchObject({ id: deliveries[0]!._id, order: { currency: 'EUR' } }),
    },
    {
      name: 'DeliveriesRepository.findByIdempotencyKey: a replay',
      run: () => store.deliveries.findByIdempotencyKey(owner, deliveries[1]!.idempotencyKey),
      check: (r) => expect(r).toMatchObject({ _id: deliveries[1]!._id, accepted: true }),
    },
    {
      name: 'DeliveriesRepository.insert: a new request',
      run: () => {
        const { accountId: _, ...doc } = deliveryDoc(owner.accountId, 20 + ++n);
        return store.deliveries.insert(owner, doc, [], at(n));
      },
      check: (outcome) => expect(outcome).toMatchObject({ inserted: { accepted: true } }),
    },
    {
      name: 'DeliveriesRepository.update: a compare-and-set change',
      run: async () => {
        const current = await db.collection<DeliveryDoc>('deliveries').findOne({ _id: deliveries[0]!._id });
        return store.deliveries.update(owner, deliveries[0]!._id, current!.version, { status: 'picked_up' }, [], at(2));
      },
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'DeliveriesRepository.findByTrackingToken: the tracking page',
      run: () => store.deliveries.findByTrackingToken(deliveries[1]!.trackingToken),
      check: (d) => expect(d).toMatchObject({ id: deliveries[1]!._id }),
    },
    {
      name: 'DeliveriesRepository.dueForDispatch: the dispatcher’s work list',
      run: () => store.deliveries.dueForDispatch(at(5), 50),
      check: (list) => expect((list as { id: string }[]).map((d) => d.id)).toContain(deliveries[1]!._id),
    },
    {
      name: 'DriversRepository.insert: a new driver',
      run: () => {
        const d = driverDoc(owner.accountId, 30 + ++n);
        return store.drivers.insert(driverOf(d), d.tokenId, d.tokenHash);
      },
      check: () => undefined,
    },
    {
      name: "DriversRepository.find: the account's driver",
      run: () => store.drivers.find(owner, drivers[0]!._id),
      check: (d) => expect(d).toMatchObject({ id: drivers[0]!._id, vehicle: 'bicycle' }),
    },
    {
      name: "DriversRepository.list: the account's drivers, newest first",
      run: () => store.drivers.list(owner, 100),
      check: (list) => expect((list as Driver[]).length).toBeGreaterThanOrEqual(2),
    },
    {
      name: 'DriversRepository.findByTokenId: a courier request',
      run: () => store.drivers.findByTokenId(drivers[0]!.tokenId),
      check: (found) =>
        expect(found).toMatchObject({ driver: { id: drivers[0]!._id }, tokenHash: drivers[0]!.tokenHash }),
    },
    {
      name: "DriversRepository.listFree: the dispatcher's candidates",
      run: () => store.drivers.listFree(owner, 2_000),
      check: (list) => expect((list as Driver[]).map((d) => d.id)).toContain(drivers[0]!._id),
    },
    {
      name: 'DriversRepository.update: going online',
      run: () => store.drivers.update(owner, drivers[0]!._id, { online: true }, at(3)),
      check: (d) => expect(d).toMatchObject({ online: true }),
    },
    {
      name: 'DriversRepository.replaceToken: a lost phone',
      run: () =>
        store.drivers.replaceToken(owner, drivers[1]!._id, `pdd_${randomBytes(16).toString('base64url')}`, 'h', at(3)),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'DriversRepository.setPosition: a courier location',
      run: () => store.drivers.setPosition(owner, drivers[0]!._id, { lat: 52.51, lng: 13.41, at: at(4) }),
      check: () => undefined,
    },
    {
      name: 'DriversRepository.holdOffer: an offer to a free driver (one that has run out by the next)',
      run: () =>
        store.drivers.holdOffer(owner, drivers[0]!._id, { providerDeliveryId: 'held', expiresAt: at(6) }, at(7 + ++n)),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'DriversRepository.takeOffered: an offer that ran out is not taken',
      run: () => store.drivers.takeOffered(owner, drivers[0]!._id, 'held', at(100_000)),
      check: (ok) => expect(ok).toBe(false),
    },
    {
      name: 'DriversRepository.dropOffer: an offer given back',
      run: () => store.drivers.dropOffer(owner, drivers[1]!._id, 'never-held', at(5)),
      check: () => undefined,
    },
    {
      name: 'DriversRepository.release: a delivery that ended',
      run: () => store.drivers.release(owner, drivers[1]!._id, drivers[1]!.activeDeliveryId ?? 'none', at(5)),
      check: () => undefined,
    },
  ];
}

describe('provider-delivery repositories', () => {
  let all: Case[];
  let timings: LookupTiming[];
  let seeded: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    seeded = await seed();
    all = cases(seeded);
    timings = await timeLookups(all, growTo);
    console.log(describeTimings(timings));
  }, 400_000);

  it('cover every query method of every repository', () => {
    const methods = Object.values(store).flatMap((repository: object) => queryMethodsOf(repository));
    expect([...new Set(all.map((c) => methodOfCase(c.name)))].sort()).toEqual(
      methods.filter((m) => !NOT_TIMED.includes(m)).sort(),
    );
    expect(NOT_TIMED.every((m) => methods.includes(m))).toBe(true);
  });

  it("answer each case with the owner's data; another account finds nothing", async () => {
    for (const c of all) c.check(await c.run());
    const listed = await store.accounts.listAll(1_000);
    expect(listed).toHaveLength(1_000);
    const stranger: AccountOwner = { accountId: randomUUID() };
    expect(await store.deliveries.find(stranger, seeded.deliveries[0]!._id)).toBeUndefined();
    expect(await store.deliveries.findByIdempotencyKey(stranger, seeded.deliveries[0]!.idempotencyKey)).toBeUndefined();
    expect(
      await store.deliveries.update(stranger, seeded.deliveries[1]!._id, 1, { status: 'cancelled' }, [], at(1)),
    ).toBe(false);
    const { accountId: _, ...again } = seeded.deliveries[1]!;
    expect(await store.deliveries.insert(owner, { ...again, _id: randomUUID() }, [], at(1))).toBe('duplicate');
    expect(await store.apiKeys.find(stranger, seeded.keys[0]!._id)).toBeUndefined();
    expect(await store.apiKeys.revoke(stranger, seeded.keys[0]!._id, at(1))).toBe(false);
    expect(await store.accounts.update(stranger, { name: 'x' }, at(1))).toBeUndefined();
    expect(await store.accounts.replaceWebhookSecret(stranger, 'v1.a.b.c', at(1), [])).toBe(false);
  });

  it('give an account stored before rate limits existed the default limit, until one is set', async () => {
    const { rateLimit: _, ...legacy } = accountDoc(7);
    await db.collection<PlatformAccountDoc>('platform_accounts').insertOne(legacy);
    const stored: AccountOwner = { accountId: legacy._id };
    expect((await store.accounts.find(stored))?.rateLimit).toEqual({ requestsPerMinute: 1_200 });
    const changed = await store.accounts.update(stored, { rateLimit: { requestsPerMinute: 30 } }, at(8));
    expect(changed?.rateLimit).toEqual({ requestsPerMinute: 30 });
    expect((await store.accounts.find(owner))?.rateLimit).toEqual({ requestsPerMinute: 600 });
  });

  it('give an account stored before event types could be chosen the spec’s table, until one is chosen', async () => {
    const { eventTypes: _, ...legacy } = accountDoc(9);
    await db.collection<PlatformAccountDoc>('platform_accounts').insertOne(legacy);
    const stored: AccountOwner = { accountId: legacy._id };
    const spec = [
      'delivery.accepted',
      'driver.assigned',
      'driver.location_updated',
      'eta.updated',
      'tracking.updated',
      'delivery.picked_up',
      'delivery.delivered',
      'delivery.cancelled',
      'delivery.failed',
    ];
    expect((await store.accounts.find(stored))?.eventTypes).toEqual(spec);
    expect((await store.accounts.findPublishing(stored))?.eventTypes).toEqual(spec);
    const changed = await store.accounts.update(stored, { eventTypes: ['delivery.on_the_way'] }, at(10));
    expect(changed?.eventTypes).toEqual(['delivery.on_the_way']);
    expect((await store.accounts.findPublishing(stored))?.eventTypes).toEqual(['delivery.on_the_way']);
  });

  it('rotation ends the other live keys, never later than their own expiry; revocation once', async () => {
    const mine: AccountOwner = { accountId: randomUUID() };
    const [a, b, c] = [keyDoc(mine.accountId, 1), keyDoc(mine.accountId, 2), keyDoc(mine.accountId, 3)];
    for (const { _id, accountId: _, ...rest } of [a, { ...b, expiresAt: at(5) }, c])
      await store.apiKeys.insert(mine, { keyId: _id, ...rest });
    await store.apiKeys.expireOthers(mine, c._id, at(10));
    const byId = new Map((await store.apiKeys.listForAccount(mine)).map((k) => [k.keyId, k.expiresAt]));
    expect(byId.get(a._id)).toEqual(at(10));
    expect(byId.get(b._id)).toEqual(at(5));
    expect(byId.get(c._id)).toBeNull();
    expect(await store.apiKeys.revoke(mine, a._id, at(2))).toBe(true);
    expect(await store.apiKeys.revoke(mine, a._id, at(3))).toBe(false);
  });

  it('stay index lookups as the data grows twentyfold', () => {
    if (timings.some(growsWithData))
      throw new Error(`lookups that grow with the data (SCAN) need an index:\n${describeTimings(timings)}`);
  });
});
