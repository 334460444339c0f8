import { randomUUID } from 'node:crypto';
import { MongoClient, type Db, type Document } from 'mongodb';
import { ensureIndexes, type TenantOwner } from '@marketplace/store';
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
import type { BranchCopyDoc } from '../src/adapters/branch-copies-repository';
import type { DeliveryDoc } from '../src/adapters/deliveries-repository';
import type { InstallationCopyDoc } from '../src/adapters/installation-copies-repository';
import type { ConnectionInstallation, ProviderConnection } from '../src/domain/dispatch/connection';
import type { ProviderDispatch } from '../src/domain/dispatch/dispatch';
import { deliveryIndexes, deliveryStore, type DeliveryStore } from '../src/adapters/store';
import type { Assignment, Delivery } from '../src/domain/delivery';
import { partnerRequestId, type PartnerRequest } from '../src/domain/partner-requests';

// Every repository query of delivery-assignment, on the real engine, with its collections holding
// 1,000 documents and then 20,000 (the extra ones other tenants'): a query an index serves costs
// about the same at both sizes, a scan about 20 times more. Each case checks its answer too.

interface Case extends LookupCase {
  readonly check: (result: unknown) => void;
}

const owner: TenantOwner = { tenantId: randomUUID() };
const OTHER_TENANTS = 2_000;
const otherTenant = (i: number) => `other-tenant-${i % OTHER_TENANTS}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000);

let client: MongoClient;
let db: Db;
let store: DeliveryStore;

beforeAll(async () => {
  client = new MongoClient(stackEnv().MONGO_URL, { retryWrites: false });
  await client.connect();
  db = client.db(uniqueName('it-delivery-repositories'));
  await ensureIndexes(db, deliveryIndexes);
  store = deliveryStore(db);
});

afterAll(async () => {
  await db?.dropDatabase().catch(() => undefined);
  await client?.close();
});

function assignment(i: number, status: Assignment['status']): Assignment {
  return {
    assignmentId: randomUUID(),
    installationId: `installation-${i % 300}`,
    status,
    assignedAt: at(i),
    respondedAt: at(i + 1),
    endedAt: status === 'Superseded' ? at(i + 2) : null,
    driverName: 'Max Mustermann',
    driverPhone: '+49 170 1234567',
    eta: at(i + 30),
    trackingUrl: 'https://track.example.com/d/0123456789',
    pickup: {
      branchId: `branch-${i % 7}`,
      name: 'Pizzeria Mitte',
      address: 'Rosenthaler Str. 1, 10119 Berlin, DE',
      latitude: 52.527,
      longitude: 13.402,
      externalLocationId: 'loc-mitte',
    },
  };
}

/** A partner action's answer kept on the delivery; half of them past their retention at `at(20_000)`. */
function partnerRequest(installationId: string, i: number): PartnerRequest {
  return {
    id: partnerRequestId(installationId, `key-${i}`),
    fingerprint: `fingerprint-${i}`,
    response: {
      assignmentId: randomUUID(),
      orderId: randomUUID(),
      appInstallationId: installationId,
      status: 2,
      assignedAtUtc: at(i).toISOString(),
      respondedAtUtc: at(i + 1).toISOString(),
      driverName: null,
      driverPhone: null,
      etaUtc: null,
      trackingUrl: null,
    },
    createdAt: at(i),
    expiresAt: at(i % 2 === 0 ? i : 40_000 + i),
  };
}

function delivery(tenantId: string, i: number, id: string = randomUUID()): Delivery {
  return {
    _id: id,
    tenantId,
    order: { orderNumber: String(1001 + i), branchId: `branch-${i % 7}`, orderMode: 1, status: 'Accepted' },
    live: assignment(i, 'InTransit'),
    history: [assignment(i, 'Superseded')],
    version: 4,
    eventRevision: 3,
    partnerRequests: [
      partnerRequest(`installation-${i % 300}`, 2 * i),
      partnerRequest(`installation-${i % 300}`, 2 * i + 1),
    ],
    createdAt: at(i),
    updatedAt: at(i),
  };
}

const installation = (tenantId: string, _i: number, id: string = randomUUID()): InstallationCopyDoc => ({
  _id: id,
  tenantId,
  connected: true,
  scopes: ['Delivery.Accept', 'Delivery.Reject', 'Orders.Read'],
  webhookUrl: 'https://provider.example.com/hooks',
  subscribedEvents: ['delivery.assigned'],
  hasWebhookSecret: true,
  revision: 2,
});

const branch = (tenantId: string, i: number, id: string = randomUUID()): BranchCopyDoc => ({
  _id: id,
  tenantId,
  sequence: i + 1,
  deleted: false,
  name: `Pizzeria ${i}`,
  address: 'Rosenthaler Str. 1, 10119 Berlin, DE',
  latitude: 52.527,
  longitude: 13.402,
  externalLocationId: `loc-${i}`,
});

const connection = (tenantId: string | null, i: number, id: string = randomUUID()): ProviderConnection => ({
  _id: id,
  tenantId,
  name: `Fleet ${i}`,
  baseUrl: `https://fleet-${i}.example.com/v1`,
  apiKeySealed: 'v1.sealed',
  signingSecretSealed: 'v1.sealed',
  contract: { version: '1.1.0', revision: '2026-09-19' },
  preparationTimeMinutes: 15,
  capabilities: { core: { enabled: true, by: 'administrator', reason: 'test', at: at(i) } },
  createdAt: at(i),
  updatedAt: at(i),
  version: 1,
});

const connectionInstallation = (tenantId: string, i: number, id: string = randomUUID()): ConnectionInstallation => ({
  _id: id,
  tenantId,
  connectionId: `connection-${i}`,
  createdAt: at(i),
});

/** A dispatch; the filled ones are closed and not due (as nearly all are on a long-lived platform). */
const dispatch = (tenantId: string, i: number, id: string = randomUUID(), open = false): ProviderDispatch => ({
  _id: id,
  tenantId,
  orderId: `order-${i}`,
  installationId: `installation-${i % 300}`,
  connectionId: `connection-${i % 50}`,
  callbackTokenHash: `hash-${id}`,
  callbackUrlSealed: 'v1.sealed',
  createdAt: at(i),
  create: { state: 'accepted', attempts: 1, detail: null, answeredAt: at(i) },
  providerDeliveryId: `pd-${i}`,
  providerTrackingId: null,
  provider: {
    status: open ? 'driver_assigned' : 'delivered',
    eventTime: at(i),
    driverName: null,
    driverPhone: null,
    driverLat: null,
    driverLng: null,
    trackingUrl: null,
    eta: null,
  },
  firstEta: null,
  seen: [],
  lastHeardAt: at(i),
  lastPolledAt: null,
  cancel: null,
  suspectSince: null,
  pollAttempts: 0,
  pollRetryAt: null,
  revision: 2,
  appliedRevision: 2,
  ...(open ? { dueAt: at(i) } : {}),
  closed: !open,
  log: [],
  version: 3,
  updatedAt: at(i),
});

async function growTo(total: number): Promise<void> {
  const c = <T extends Document>(name: string) => db.collection<T>(name);
  await Promise.all([
    fillTo(c<DeliveryDoc>('deliveries'), total, (i) => delivery(otherTenant(i), i)),
    fillTo(c<InstallationCopyDoc>('installation_copies'), total, (i) => installation(otherTenant(i), i)),
    fillTo(c<BranchCopyDoc>('branch_copies'), total, (i) => branch(otherTenant(i), i)),
    fillTo(c<ProviderConnection & { ownerKey: string }>('provider_connections'), total, (i) => ({
      ...connection(otherTenant(i), i),
      ownerKey: otherTenant(i),
    })),
    fillTo(c<ConnectionInstallation>('connection_installations'), total, (i) =>
      connectionInstallation(otherTenant(i), i),
    ),
    fillTo(c<ProviderDispatch>('provider_dispatches'), total, (i) => dispatch(otherTenant(i), i)),
    fillTo(c<Document & { _id: string }>('connection_scores'), total, (i) => ({
      _id: `connection-${otherTenant(i)}-${i}`,
      ownerKey: otherTenant(i),
      dispatched: i,
      accepted: i,
    })),
    fillTo(c<Document & { _id: string }>('dispatch_rules'), total, (i) => ({
      _id: `rules-${otherTenant(i)}-${i}`,
      connections: [`installation-${i}`],
      rescue: { enabled: false, withinMinutes: 5 },
      updatedAt: at(i),
    })),
  ]);
}

const OWN_INSTALLATION = `installation-of-${owner.tenantId}`;
const ownRequest = partnerRequest(OWN_INSTALLATION, 3);

async function seed() {
  const deliveries = [delivery(owner.tenantId, 1), { ...delivery(owner.tenantId, 2), partnerRequests: [ownRequest] }];
  for (const d of deliveries) await store.deliveries.insert(owner, d);
  const installations = [installation(owner.tenantId, 1), installation(owner.tenantId, 2)];
  for (const i of installations) await store.installations.saveIfNewer(owner, i);
  const branches = [branch(owner.tenantId, 1), branch(owner.tenantId, 2)];
  for (const b of branches) await store.branches.saveIfNewer(owner, b);
  const connections = [connection(owner.tenantId, 1), connection(owner.tenantId, 2)];
  for (const c of connections) await store.connections.insert(owner, c);
  const connectionInstallations = [
    connectionInstallation(owner.tenantId, 1),
    connectionInstallation(owner.tenantId, 2),
  ];
  for (const i of connectionInstallations) await store.connectionInstallations.insert(owner, i);
  const dispatches = [dispatch(owner.tenantId, 1, randomUUID(), true), dispatch(owner.tenantId, 2)];
  for (const d of dispatches) await store.dispatches.insert(owner, d);
  return { deliveries, installations, branches, connections, connectionInstallations, dispatches };
}

function dispatchCases({ connections, connectionInstallations, dispatches }: Awaited<ReturnType<typeof seed>>): Case[] {
  let n = 0;
  let connectionVersion = connections[0]!.version;
  let dispatchVersion = dispatches[1]!.version;
  return [
    {
      name: 'ConnectionsRepository.insert: a new connection',
      run: () => store.connections.insert(owner, connection(owner.tenantId, 10 + ++n)),
      check: () => undefined,
    },
    {
      name: "ConnectionsRepository.find: the tenant's connection",
      run: () => store.connections.find(owner, connections[1]!._id),
      check: (c) => expect((c as ProviderConnection).name).toBe('Fleet 2'),
    },
    {
      name: "ConnectionsRepository.list: the tenant's and the offered ones",
      run: () => store.connections.list(owner),
      check: (list) => expect((list as ProviderConnection[]).length).toBeGreaterThanOrEqual(2),
    },
    {
      name: 'ConnectionsRepository.replaceIfUnchanged: the next version',
      run: () => {
        connectionVersion += 1;
        return store.connections.replaceIfUnchanged(owner, { ...connections[0]!, version: connectionVersion });
      },
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'ConnectionInstallationsRepository.insert: a new installation',
      run: () => store.connectionInstallations.insert(owner, connectionInstallation(owner.tenantId, 100 + ++n)),
      check: () => undefined,
    },
    {
      name: 'ConnectionInstallationsRepository.find: one installation',
      run: () => store.connectionInstallations.find(owner, connectionInstallations[0]!._id),
      check: (i) => expect((i as ConnectionInstallation).connectionId).toBe('connection-1'),
    },
    {
      name: "ConnectionInstallationsRepository.findByConnection: the tenant's installation of a connection",
      run: () => store.connectionInstallations.findByConnection(owner, 'connection-2'),
      check: (i) => expect((i as ConnectionInstallation)._id).toBe(connectionInstallations[1]!._id),
    },
    {
      name: "ConnectionInstallationsRepository.list: the tenant's installations",
      run: () => store.connectionInstallations.list(owner),
      check: (list) => expect((list as ConnectionInstallation[]).length).toBeGreaterThanOrEqual(2),
    },
    {
      name: 'DispatchesRepository.insert: a new dispatch',
      run: () => store.dispatches.insert(owner, dispatch(owner.tenantId, 200 + ++n)),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: "DispatchesRepository.find: the tenant's dispatch",
      run: () => store.dispatches.find(owner, dispatches[0]!._id),
      check: (d) => expect((d as ProviderDispatch).orderId).toBe('order-1'),
    },
    {
      name: 'DispatchesRepository.findByCallbackToken: by the hash of the token',
      run: () => store.dispatches.findByCallbackToken(dispatches[1]!.callbackTokenHash),
      check: (d) => expect((d as ProviderDispatch)._id).toBe(dispatches[1]!._id),
    },
    {
      name: "DispatchesRepository.listForOrder: an order's dispatches",
      run: () => store.dispatches.listForOrder(owner, 'order-2'),
      check: (list) => expect((list as ProviderDispatch[]).map((d) => d._id)).toEqual([dispatches[1]!._id]),
    },
    {
      name: 'DispatchesRepository.dueForWork: the due ones',
      run: () => store.dispatches.dueForWork(at(5), 100),
      check: (list) => expect((list as ProviderDispatch[]).map((d) => d._id)).toContain(dispatches[0]!._id),
    },
    {
      name: 'DispatchesRepository.openStateTimes: the open ones',
      run: () => store.dispatches.openStateTimes(),
      check: (list) => expect((list as unknown[]).length).toBeGreaterThanOrEqual(1),
    },
    {
      name: "ConnectionScoresRepository.add: a connection's increments",
      run: () =>
        store.connectionScores.add(
          { connectionId: connections[0]!._id, tenantId: owner.tenantId },
          { dispatched: 1, accepted: 1 },
        ),
      check: () => undefined,
    },
    {
      name: "ConnectionScoresRepository.find: a connection's record",
      run: () => store.connectionScores.find(owner, connections[0]!._id),
      check: (found) => expect((found as { dispatched: number }).dispatched).toBeGreaterThanOrEqual(1),
    },
    {
      name: "DispatchRulesRepository.save: the tenant's rules",
      run: () =>
        store.dispatchRules.save(owner, {
          connections: [connectionInstallations[0]!._id],
          rescue: { enabled: true, withinMinutes: 10 + ++n },
          updatedAt: at(n),
        }),
      check: () => undefined,
    },
    {
      name: "DispatchRulesRepository.find: the tenant's rules",
      run: () => store.dispatchRules.find(owner),
      check: (rules) => expect((rules as { connections: string[] }).connections).toHaveLength(1),
    },
    {
      name: 'DispatchesRepository.replaceIfUnchanged: the next version',
      run: () => {
        dispatchVersion += 1;
        return store.dispatches.replaceIfUnchanged(owner, { ...dispatches[1]!, version: dispatchVersion });
      },
      check: (ok) => expect(ok).toBe(true),
    },
  ];
}

function cases(seeded: Awaited<ReturnType<typeof seed>>): Case[] {
  return [...assignmentCases(seeded), ...dispatchCases(seeded)];
}

function assignmentCases({ deliveries, installations, branches }: Awaited<ReturnType<typeof seed>>): Case[] {
  let n = 0;
  let version = deliveries[0]!.version;
  return [
    {
      name: "DeliveriesRepository.findByOrder: the tenant's order",
      run: () => store.deliveries.findByOrder(owner, deliveries[1]!._id),
      check: (d) => expect((d as Delivery)._id).toBe(deliveries[1]!._id),
    },
    {
      name: 'DeliveriesRepository.insert: a new order',
      run: () => store.deliveries.insert(owner, delivery(owner.tenantId, 10, `order-new-${++n}`)),
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: 'DeliveriesRepository.replaceIfUnchanged: the next version',
      run: () => {
        version += 1;
        return store.deliveries.replaceIfUnchanged(
          owner,
          { ...deliveries[0]!, version, updatedAt: at(version) },
          [],
          at(version),
        );
      },
      check: (ok) => expect(ok).toBe(true),
    },
    {
      name: "DeliveriesRepository.findPartnerRequest: an installation's key",
      run: () =>
        store.deliveries.findPartnerRequest(
          { tenantId: owner.tenantId, installationId: OWN_INSTALLATION },
          ownRequest.id,
          at(0),
        ),
      check: (found) => expect((found as PartnerRequest).fingerprint).toBe(ownRequest.fingerprint),
    },
    {
      // Each run finds the expired answers of a few minutes more (the filled documents' are spread
      // over their minutes): what a sweep every few minutes meets.
      name: 'DeliveriesRepository.deleteExpiredPartnerRequests: the expired answers',
      run: () => store.deliveries.deleteExpiredPartnerRequests(at(++n)),
      check: () => undefined,
    },
    {
      name: 'InstallationCopiesRepository.find: one installation',
      run: () => store.installations.find(owner, installations[0]!._id),
      check: (i) => expect((i as InstallationCopyDoc).scopes).toContain('Delivery.Accept'),
    },
    {
      name: 'InstallationCopiesRepository.saveIfNewer: a later revision',
      run: () => store.installations.saveIfNewer(owner, { ...installations[1]!, revision: 10 + ++n }),
      check: () => undefined,
    },
    {
      name: 'BranchCopiesRepository.find: one branch',
      run: () => store.branches.find(owner, branches[0]!._id),
      check: (b) => expect((b as BranchCopyDoc).name).toBe('Pizzeria 1'),
    },
    {
      name: 'BranchCopiesRepository.saveIfNewer: a later sequence',
      run: () => store.branches.saveIfNewer(owner, { ...branches[1]!, sequence: 10 + ++n }),
      check: () => undefined,
    },
  ];
}

describe('delivery-assignment repositories', () => {
  let all: Case[];
  let timings: LookupTiming[];

  beforeAll(async () => {
    all = cases(await seed());
    timings = await timeLookups(all, growTo);
    console.log(describeTimings(timings));
  }, 400_000);

  it('cover every query method of every repository', () => {
    const methods = Object.values(store).flatMap((repository: object) => queryMethodsOf(repository));
    expect(new Set(all.map((c) => methodOfCase(c.name)))).toEqual(new Set(methods));
  });

  it("answer each case with the owner's data; another tenant finds nothing", async () => {
    for (const c of all) c.check(await c.run());
    const stranger = { tenantId: randomUUID() };
    const [first] = (await seed()).deliveries;
    expect(await store.deliveries.findByOrder(stranger, first!._id)).toBeUndefined();
    expect(
      await store.deliveries.replaceIfUnchanged(
        stranger,
        { ...first!, tenantId: stranger.tenantId, version: first!.version + 1 },
        [],
        at(1),
      ),
    ).toBe(false);
    const seeded = await seed();
    expect(await store.connections.find(stranger, seeded.connections[0]!._id)).toBeUndefined();
    expect(await store.connections.list(stranger)).toEqual(
      (await store.connections.list(stranger)).filter((c) => c.tenantId === null),
    );
    expect(await store.connectionInstallations.find(stranger, seeded.connectionInstallations[0]!._id)).toBeUndefined();
    expect(await store.dispatches.find(stranger, seeded.dispatches[0]!._id)).toBeUndefined();
    expect(await store.dispatches.listForOrder(stranger, seeded.dispatches[0]!.orderId)).toEqual([]);
    expect(await store.dispatchRules.find(stranger)).toBeUndefined();
    await store.connectionScores.add(
      { connectionId: seeded.connections[0]!._id, tenantId: owner.tenantId },
      { dispatched: 1 },
    );
    expect(await store.connectionScores.find(stranger, seeded.connections[0]!._id)).toBeUndefined();
    expect(
      await store.dispatches.replaceIfUnchanged(stranger, {
        ...seeded.dispatches[0]!,
        tenantId: stranger.tenantId,
        version: seeded.dispatches[0]!.version + 1,
      }),
    ).toBe(false);
    const strangerWithTheKey = { tenantId: stranger.tenantId, installationId: OWN_INSTALLATION };
    expect(await store.deliveries.findPartnerRequest(strangerWithTheKey, ownRequest.id, at(0))).toBeUndefined();
  });

  it('a partner request is found until its retention ends; the sweep removes only the expired ones', async () => {
    const installationId = randomUUID();
    const mine = { tenantId: owner.tenantId, installationId };
    const [expiring, kept] = [partnerRequest(installationId, 6), partnerRequest(installationId, 7)];
    const d = { ...delivery(owner.tenantId, 3), partnerRequests: [expiring, kept] };
    await store.deliveries.insert(owner, d);
    expect(await store.deliveries.findPartnerRequest(mine, expiring.id, at(5))).toEqual(expiring);
    expect(await store.deliveries.findPartnerRequest(mine, expiring.id, at(6))).toBeUndefined();
    expect(await store.deliveries.deleteExpiredPartnerRequests(at(6))).toBeGreaterThanOrEqual(1);
    expect((await store.deliveries.findByOrder(owner, d._id))?.partnerRequests).toEqual([kept]);
    await expect(
      store.deliveries.findPartnerRequest({ tenantId: owner.tenantId, installationId: 'another' }, kept.id, at(0)),
    ).rejects.toThrow('another installation');
  });

  it('a stale version or revision changes nothing', async () => {
    const [d] = (await seed()).deliveries;
    expect(await store.deliveries.replaceIfUnchanged(owner, { ...d!, version: d!.version + 1 }, [], at(2))).toBe(true);
    expect(await store.deliveries.replaceIfUnchanged(owner, { ...d!, version: d!.version + 1 }, [], at(3))).toBe(false);
    const copy = installation(owner.tenantId, 5);
    await store.installations.saveIfNewer(owner, { ...copy, revision: 5, connected: true });
    await store.installations.saveIfNewer(owner, { ...copy, revision: 4, connected: false });
    expect((await store.installations.find(owner, copy._id))?.connected).toBe(true);
  });

  it('stay index lookups as the data grows twentyfold', () => {
    if (timings.some(growsWithData))
      throw new Error(`lookups that grow with the data (SCAN) need an index:\n${describeTimings(timings)}`);
  });
});
