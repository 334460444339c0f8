import { randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { OUTBOX, OutboxRelay } from '@marketplace/outbox';
import { ensureIndexes } from '@marketplace/store';
import {
  describeTimings,
  fillTo,
  growsWithData,
  methodOfCase,
  queryMethodsOf,
  sleep,
  stackEnv,
  timeLookups,
  uniqueName,
  type LookupCase,
} from '@marketplace/testing';
import { AccountSecretsRepository, type AccountSecretCopy } from '../src/adapters/account-secrets-repository';
import { DeliveriesRepository, type DeliveryDoc } from '../src/adapters/deliveries-repository';
import { InstallationCopiesRepository } from '../src/adapters/installation-copies-repository';
import { MetaRepository, type MetaDoc } from '../src/adapters/meta-repository';
import { DELIVERIES, webhookIndexes } from '../src/adapters/store';
import type { AttemptRecord, PartnerWebhookDelivery, ProviderCallbackDelivery } from '../src/domain/delivery';
import type { InstallationCopy } from '../src/domain/installation';

// Every repository query of the sender, on the real engine, with its collections at 1,000 and
// then 20,000 documents of other tenants and installations: a query served by an index costs
// about the same at both sizes; a scan grows with the data and fails the test. Each case also
// checks its answer, so that it is a real query; a repository method without a case fails too.

jest.setTimeout(180_000);

const TENANT = 'tenant-under-test';
const OTHER_TENANT = 'tenant-next-door';
const INSTALLATION = 'installation-under-test';
const OWNER = { tenantId: TENANT, installationId: INSTALLATION };
const ACCOUNT = 'account-under-test';
const ACCOUNT_OWNER = { accountId: ACCOUNT };
const PROVIDER_DELIVERY = 'provider-delivery-under-test';
const SENDING_SINCE = new Date('2024-05-01T00:00:00Z');

let client: MongoClient;
let db: Db;

beforeAll(async () => {
  client = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  db = client.db(uniqueName('it_webhook_repos').replace(/-/g, '_'));
  // The service's indexes, and the outbox relay's on the deliveries (which the runtime adds).
  await ensureIndexes(db, webhookIndexes);
  await ensureIndexes(db, OutboxRelay.indexes([DELIVERIES]));
});

afterAll(async () => {
  try {
    await db?.dropDatabase();
  } finally {
    await client?.close();
  }
});

const day = (n: number) => new Date(Date.UTC(2024, 5, 1) + n * 86_400_000);
const body = (id: string, n: number) =>
  JSON.stringify({
    id,
    type: 'order.created',
    occurredAt: day(n).toISOString(),
    data: {
      orderId: randomUUID(),
      storeId: randomUUID(),
      total: { amount: 1234 + n, currency: 'EUR' },
      lines: [
        { itemId: randomUUID(), name: 'Margherita', quantity: 2 },
        { itemId: randomUUID(), name: 'Tiramisu', quantity: 1 },
      ],
    },
  });
const attemptAt = (at: Date): AttemptRecord => ({
  round: 1,
  attempt: 1,
  at,
  statusCode: 503,
  latencyMs: 120,
  errorClass: null,
  verdict: 'retry',
});

/** A delivery as the sender stores it (about 0.8 KB). */
function delivery(
  id: string,
  tenantId: string,
  installationId: string,
  n: number,
  status: DeliveryDoc['status'] = 'delivered',
): PartnerWebhookDelivery {
  return {
    _id: id,
    tenantId,
    installationId,
    kind: 'partner-webhook',
    type: 'order.created',
    sourceEventId: randomUUID(),
    occurredAt: day(n).toISOString(),
    body: body(id, n),
    status,
    round: 1,
    nextAttempt: 2,
    nextAttemptAt: null,
    attempts: [attemptAt(day(n)), { ...attemptAt(day(n)), attempt: 2, statusCode: 200, verdict: 'delivered' }],
    reason: status === 'dead_lettered' ? 'no success after 8 attempts' : null,
    createdAt: day(n),
    updatedAt: day(n),
  };
}

/** A provider callback as the sender stores it: one event of a provider delivery (about 0.9 KB). */
function callback(
  id: string,
  accountId: string,
  providerDeliveryId: string,
  n: number,
  options: { terminal?: boolean; status?: DeliveryDoc['status'] } = {},
): ProviderCallbackDelivery {
  const terminal = options.terminal ?? false;
  const status = options.status ?? 'delivered';
  return {
    _id: id,
    kind: 'provider-callback',
    accountId,
    providerDeliveryId,
    callbackUrlSealed: `v1.${Buffer.from(randomUUID() + randomUUID()).toString('base64url')}`,
    terminal,
    type: terminal ? 'delivery.delivered' : 'driver.location_updated',
    sourceEventId: randomUUID(),
    occurredAt: day(n).toISOString(),
    body: JSON.stringify({
      eventType: terminal ? 'delivery.delivered' : 'driver.location_updated',
      platformReference: `order-${n}`,
      providerDeliveryId,
      status: terminal ? 'delivered' : 'on_the_way',
      eventTimeUtc: day(n).toISOString(),
      driverName: 'Max Mustermann',
      driverPhone: '+49 170 1234567',
      driverLat: 52.52,
      driverLng: 13.4,
      trackingUrl: 'https://track.example.com/t/abc',
      estimatedDeliveryAtUtc: day(n).toISOString(),
    }),
    status,
    round: 1,
    nextAttempt: 2,
    nextAttemptAt: null,
    attempts: [attemptAt(day(n)), { ...attemptAt(day(n)), attempt: 2, statusCode: 200, verdict: 'delivered' }],
    reason: status === 'dead_lettered' ? 'no success after 8 attempts' : null,
    createdAt: day(n),
    updatedAt: day(n),
  };
}

/** An installation copy as kept from the installation events (about 0.6 KB). */
function installation(id: string, tenantId: string, revision = 1): InstallationCopy {
  return {
    _id: id,
    tenantId,
    appId: randomUUID(),
    status: 'active',
    connected: true,
    webhookUrl: `https://partner-${id}.example.com/webhooks/marketplace`,
    subscribedEvents: [
      'order.created',
      'order.accepted',
      'order.rejected',
      'order.cancelled',
      'order.delivered',
      'catalog.item.changed',
    ],
    webhookSecretSealed: `v1.${Buffer.from(randomUUID() + randomUUID() + randomUUID()).toString('base64')}`,
    revision,
    changedAt: day(revision),
  };
}

const { _id: _ignoredId, tenantId: _ignoredTenant, ...snapshotOf } = { ...installation('x', 'x') };
const snapshot = (revision: number) => ({ ...snapshotOf, revision, changedAt: day(revision) });
const attemptEvent = (deliveryId: string): OutgoingEvent => ({
  topic: 'webhook-attempts.retry-1',
  key: INSTALLATION,
  type: 'webhook.attempt',
  data: { deliveryId, installationId: INSTALLATION, round: 1, attempt: 2, dueAt: day(1).toISOString() },
});

/**
 * Fills every collection to `total` with other owners' documents: partner webhooks of 5,000
 * installations of 2,000 tenants and, as many, provider callbacks of 2,000 provider deliveries of
 * 500 accounts (one in ten terminal).
 */
async function growTo(total: number): Promise<void> {
  await fillTo(db.collection<DeliveryDoc>(DeliveriesRepository.storage.collection), total, (i): DeliveryDoc => {
    if (i % 2 === 1) {
      const pd = i % 2_000;
      return callback(`fill-callback-${i}`, `fill-account-${pd % 500}`, `fill-provider-delivery-${pd}`, i % 365, {
        terminal: i % 10 === 1,
      });
    }
    const inst = i % 5_000;
    return delivery(`fill-delivery-${i}`, `fill-tenant-${inst % 2_000}`, `fill-installation-${inst}`, i % 365);
  });
  await fillTo(db.collection<AccountSecretCopy>(AccountSecretsRepository.storage.collection), total, (i) => ({
    _id: `fill-account-${i}`,
    sealed: `v1.${Buffer.from(randomUUID() + randomUUID()).toString('base64url')}`,
    rotatedAt: day(i % 365),
  }));
  await fillTo(db.collection<InstallationCopy>(InstallationCopiesRepository.storage.collection), total, (i) =>
    installation(`fill-installation-${i}`, `fill-tenant-${i % 2_000}`),
  );
  await fillTo(db.collection<MetaDoc>(MetaRepository.storage.collection), total, (i) => ({
    _id: `fill-fact-${i}`,
    at: day(i % 365),
  }));
  // Let the engine settle after thousands of inserts (durable writes, collection) before timing.
  await sleep(1_000);
}

it('serves every repository query from an index: the time per lookup does not grow with the data', async () => {
  const deliveries = new DeliveriesRepository(db);
  const installations = new InstallationCopiesRepository(db);
  const meta = new MetaRepository(db);
  const accountSecrets = new AccountSecretsRepository(db);

  // The owner's data: 3 installations, 6 deliveries of one of them (one dead letter), and a
  // delivery of another tenant's installation.
  for (const id of [INSTALLATION, 'installation-2', 'installation-3'])
    await installations.saveIfNewer({ tenantId: TENANT, installationId: id }, snapshot(1));
  await installations.saveIfNewer({ tenantId: OTHER_TENANT, installationId: 'installation-next-door' }, snapshot(1));
  for (let n = 0; n < 6; n++) {
    const {
      tenantId: _t,
      installationId: _i,
      ...d
    } = delivery(`delivery-${n}`, TENANT, INSTALLATION, n, n === 2 ? 'dead_lettered' : 'delivered');
    expect(await deliveries.create(OWNER, d, [], day(n))).toBe(true);
  }
  const {
    tenantId: _t,
    installationId: _i,
    ...foreign
  } = delivery('delivery-next-door', OTHER_TENANT, 'installation-next-door', 1);
  await deliveries.create({ tenantId: OTHER_TENANT, installationId: 'installation-next-door' }, foreign, [], day(1));
  expect(await meta.claimSendingSince(SENDING_SINCE)).toEqual(SENDING_SINCE);
  // One order's webhooks to the installation: its creation still pending (a retry due), its
  // cancellation behind it, and a delivered webhook of another order.
  const sequenced = (id: string, subject: string, n: number, status: DeliveryDoc['status']) => {
    const { tenantId: _st, installationId: _si, ...d } = delivery(id, TENANT, INSTALLATION, n, status);
    return { ...d, subject };
  };
  await deliveries.create(OWNER, sequenced('order-1-created', 'order:order-1', -3, 'pending'), [], day(-3));
  await deliveries.create(OWNER, sequenced('order-1-cancelled', 'order:order-1', -2, 'pending'), [], day(-2));
  await deliveries.create(OWNER, sequenced('order-2-created', 'order:order-2', -3, 'delivered'), [], day(-3));
  // The account's: 6 events of one provider delivery (the last terminal, one dead letter), 2 of
  // another, nonterminal only, and its secret.
  for (let n = 0; n < 6; n++) {
    const { accountId: _a, ...c } = callback(`callback-${n}`, ACCOUNT, PROVIDER_DELIVERY, n, {
      terminal: n === 5,
      status: n === 3 ? 'dead_lettered' : 'delivered',
    });
    expect(await deliveries.createForAccount(ACCOUNT_OWNER, c, [], day(n))).toBe(true);
  }
  for (let n = 6; n < 8; n++) {
    const { accountId: _a, ...c } = callback(`callback-${n}`, ACCOUNT, 'provider-delivery-2', n);
    await deliveries.createForAccount(ACCOUNT_OWNER, c, [], day(n));
  }
  // And a burst of a third: a nonterminal event and the terminal one, neither attempted yet.
  for (const terminal of [false, true]) {
    const { accountId: _a, ...c } = callback(`burst-${terminal}`, ACCOUNT, 'provider-delivery-4', 0, {
      terminal,
      status: 'pending',
    });
    await deliveries.createForAccount(ACCOUNT_OWNER, { ...c, attempts: [], nextAttempt: 1 }, [], day(0));
  }
  // And a fourth whose terminal event left (marked before its request) with no attempt recorded: a crash mid-request.
  const { accountId: _a5, ...left } = callback('left-true', ACCOUNT, 'provider-delivery-5', 0, {
    terminal: true,
    status: 'pending',
  });
  await deliveries.createForAccount(ACCOUNT_OWNER, { ...left, attempts: [], nextAttempt: 1 }, [], day(0));
  await deliveries.markSending(ACCOUNT_OWNER, 'left-true', day(0));
  expect(await accountSecrets.saveIfNewer(ACCOUNT_OWNER, { sealed: 'v1.first', rotatedAt: day(1) })).toBe(true);

  let revision = 1;
  let createdDeliveries = 0;
  let createdInstallations = 0;
  let recorded = 0;
  let staged = 0;
  let round = 1;
  let callbackRound = 1;
  let createdCallbacks = 0;
  let rotations = 1;
  let createdAccounts = 0;
  const cases: LookupCase[] = [
    {
      name: 'DeliveriesRepository.create: a new delivery with its first attempt staged',
      run: async () => {
        const {
          tenantId: _a,
          installationId: _b,
          ...d
        } = delivery(`created-${++createdDeliveries}`, TENANT, 'installation-3', 1, 'pending');
        expect(
          await deliveries.create(
            { tenantId: TENANT, installationId: 'installation-3' },
            d,
            [attemptEvent(d._id)],
            day(1),
          ),
        ).toBe(true);
      },
    },
    {
      name: 'DeliveriesRepository.create: the same delivery again is refused',
      run: async () => {
        const { tenantId: _a, installationId: _b, ...d } = delivery('delivery-0', TENANT, INSTALLATION, 0);
        expect(await deliveries.create(OWNER, d, [], day(0))).toBe(false);
      },
    },
    {
      name: 'DeliveriesRepository.findForAttempt: by the id in the attempt message',
      run: async () => {
        const found = await deliveries.findForAttempt('delivery-3');
        expect(found).toMatchObject({ _id: 'delivery-3', tenantId: TENANT, installationId: INSTALLATION });
        expect(found).not.toHaveProperty(OUTBOX);
      },
    },
    {
      name: "DeliveriesRepository.findForTenant: one of the tenant's deliveries",
      run: async () =>
        expect(await deliveries.findForTenant({ tenantId: TENANT }, 'delivery-4')).toMatchObject({
          _id: 'delivery-4',
          type: 'order.created',
        }),
    },
    {
      name: "DeliveriesRepository.findForTenant: another tenant's delivery is not found",
      run: async () =>
        expect(await deliveries.findForTenant({ tenantId: TENANT }, 'delivery-next-door')).toBeUndefined(),
    },
    {
      name: "DeliveriesRepository.listForInstallation: the installation's deliveries, newest first",
      run: async () =>
        expect((await deliveries.listForInstallation(OWNER, { limit: 4 })).map((d) => d._id)).toEqual([
          'delivery-5',
          'delivery-4',
          'delivery-3',
          'delivery-2',
        ]),
    },
    {
      name: "DeliveriesRepository.listForInstallation: the installation's dead letters",
      run: async () =>
        expect(
          (await deliveries.listForInstallation(OWNER, { status: 'dead_lettered', limit: 50 })).map((d) => d._id),
        ).toEqual(['delivery-2']),
    },
    {
      name: 'DeliveriesRepository.recordAttempt: an outcome that ends the delivery',
      run: async () =>
        void (
          recorded++,
          await deliveries.recordAttempt(
            OWNER,
            'delivery-0',
            { status: 'failed', reason: 'the receiver answered 410', updatedAt: day(9) },
            attemptAt(day(9)),
            [],
            day(9),
          )
        ),
    },
    {
      name: 'DeliveriesRepository.recordAttempt: a retry, its next attempt staged',
      run: async () =>
        void (
          staged++,
          await deliveries.recordAttempt(
            OWNER,
            'delivery-1',
            { status: 'pending', nextAttempt: 2, nextAttemptAt: day(9), updatedAt: day(9) },
            attemptAt(day(9)),
            [attemptEvent('delivery-1')],
            day(9),
          )
        ),
    },
    {
      name: 'DeliveriesRepository.startRound: a redelivery',
      run: async () =>
        void (await deliveries.startRound(
          { tenantId: TENANT },
          'delivery-4',
          { status: 'delivered', round: ++round, updatedAt: day(9) },
          [attemptEvent('delivery-4')],
          day(9),
        )),
    },
    {
      name: "DeliveriesRepository.findForTenant: a provider callback's id is not found (a tenant never sees one)",
      run: async () => expect(await deliveries.findForTenant({ tenantId: TENANT }, 'callback-1')).toBeUndefined(),
    },
    {
      name: 'DeliveriesRepository.createForAccount: a new provider callback with its first attempt staged',
      run: async () => {
        const { accountId: _a, ...c } = callback(
          `created-callback-${++createdCallbacks}`,
          ACCOUNT,
          'provider-delivery-3',
          1,
        );
        expect(await deliveries.createForAccount(ACCOUNT_OWNER, c, [attemptEvent(c._id)], day(1))).toBe(true);
      },
    },
    {
      name: 'DeliveriesRepository.createForAccount: the same callback again is refused',
      run: async () => {
        const { accountId: _a, ...c } = callback('callback-0', ACCOUNT, PROVIDER_DELIVERY, 0);
        expect(await deliveries.createForAccount(ACCOUNT_OWNER, c, [], day(0))).toBe(false);
      },
    },
    {
      name: 'DeliveriesRepository.findProviderCallback: one callback, for the administrators',
      run: async () => {
        const found = await deliveries.findProviderCallback('callback-2');
        expect(found).toMatchObject({ _id: 'callback-2', kind: 'provider-callback', accountId: ACCOUNT });
        expect(found).not.toHaveProperty(OUTBOX);
      },
    },
    {
      name: "DeliveriesRepository.findProviderCallback: a partner webhook's id is not found",
      run: async () => expect(await deliveries.findProviderCallback('delivery-3')).toBeUndefined(),
    },
    {
      name: "DeliveriesRepository.listForAccount: the account's callbacks, newest first",
      run: async () =>
        expect((await deliveries.listForAccount(ACCOUNT_OWNER, { limit: 3 })).map((d) => d._id)).toEqual([
          'callback-7',
          'callback-6',
          'callback-5',
        ]),
    },
    {
      name: "DeliveriesRepository.listForAccount: the account's dead letters",
      run: async () =>
        expect(
          (await deliveries.listForAccount(ACCOUNT_OWNER, { status: 'dead_lettered', limit: 50 })).map((d) => d._id),
        ).toEqual(['callback-3']),
    },
    {
      name: "DeliveriesRepository.listForAccount: one provider delivery's events, newest first",
      run: async () =>
        expect(
          (await deliveries.listForAccount(ACCOUNT_OWNER, { providerDeliveryId: PROVIDER_DELIVERY, limit: 50 })).map(
            (d) => d._id,
          ),
        ).toEqual(['callback-5', 'callback-4', 'callback-3', 'callback-2', 'callback-1', 'callback-0']),
    },
    {
      name: "DeliveriesRepository.listForAccount: one provider delivery's events with a status",
      run: async () =>
        expect(
          (
            await deliveries.listForAccount(ACCOUNT_OWNER, {
              providerDeliveryId: PROVIDER_DELIVERY,
              status: 'dead_lettered',
              limit: 50,
            })
          ).map((d) => d._id),
        ).toEqual(['callback-3']),
    },
    {
      name: 'DeliveriesRepository.hasTerminalEvent: a terminal event of the provider delivery was received',
      run: async () => expect(await deliveries.hasTerminalEvent(ACCOUNT_OWNER, PROVIDER_DELIVERY)).toBe(true),
    },
    {
      name: 'DeliveriesRepository.hasTerminalEvent: none of a delivery with nonterminal events only',
      run: async () => expect(await deliveries.hasTerminalEvent(ACCOUNT_OWNER, 'provider-delivery-2')).toBe(false),
    },
    {
      name: 'DeliveriesRepository.terminalEventSent: the terminal event of the provider delivery was attempted',
      run: async () => expect(await deliveries.terminalEventSent(ACCOUNT_OWNER, PROVIDER_DELIVERY)).toBe(true),
    },
    {
      name: 'DeliveriesRepository.terminalEventSent: not while it waits for its first attempt',
      run: async () => expect(await deliveries.terminalEventSent(ACCOUNT_OWNER, 'provider-delivery-4')).toBe(false),
    },
    {
      name: 'DeliveriesRepository.terminalEventSent: once its request was marked as leaving, with no attempt recorded',
      run: async () => expect(await deliveries.terminalEventSent(ACCOUNT_OWNER, 'provider-delivery-5')).toBe(true),
    },
    {
      name: 'DeliveriesRepository.markSending: a terminal callback about to be sent (the first mark is kept)',
      run: async () => void (await deliveries.markSending(ACCOUNT_OWNER, 'left-true', day(9))),
    },
    {
      name: "DeliveriesRepository.pendingOfSubject: the order's pending webhooks up to the cancellation",
      run: async () =>
        expect((await deliveries.pendingOfSubject(OWNER, 'order:order-1', day(-2))).map((d) => d._id).sort()).toEqual([
          'order-1-cancelled',
          'order-1-created',
        ]),
    },
    {
      name: "DeliveriesRepository.pendingOfSubject: none of an order whose webhooks were delivered, nor of another installation's",
      run: async () => {
        expect(await deliveries.pendingOfSubject(OWNER, 'order:order-2', day(-2))).toEqual([]);
        const other = { tenantId: TENANT, installationId: 'installation-2' };
        expect(await deliveries.pendingOfSubject(other, 'order:order-1', day(-2))).toEqual([]);
      },
    },
    {
      name: 'DeliveriesRepository.hasUnattemptedNonterminal: an earlier event waits for its first attempt',
      run: async () =>
        expect(await deliveries.hasUnattemptedNonterminal(ACCOUNT_OWNER, 'provider-delivery-4')).toBe(true),
    },
    {
      name: 'DeliveriesRepository.hasUnattemptedNonterminal: none once every event was attempted',
      run: async () => expect(await deliveries.hasUnattemptedNonterminal(ACCOUNT_OWNER, PROVIDER_DELIVERY)).toBe(false),
    },
    {
      name: "DeliveriesRepository.hasTerminalEvent: another account's terminal event does not count",
      run: async () =>
        expect(await deliveries.hasTerminalEvent({ accountId: 'account-next-door' }, PROVIDER_DELIVERY)).toBe(false),
    },
    {
      name: "DeliveriesRepository.recordAttempt: a provider callback's retry, its next attempt staged",
      run: async () =>
        void (await deliveries.recordAttempt(
          ACCOUNT_OWNER,
          'callback-6',
          { status: 'pending', nextAttempt: 2, nextAttemptAt: day(9), updatedAt: day(9) },
          attemptAt(day(9)),
          [attemptEvent('callback-6')],
          day(9),
        )),
    },
    {
      name: 'DeliveriesRepository.startRound: a redelivery of a provider callback',
      run: async () =>
        void (await deliveries.startRound(
          ACCOUNT_OWNER,
          'callback-5',
          { status: 'delivered', round: ++callbackRound, updatedAt: day(9) },
          [attemptEvent('callback-5')],
          day(9),
        )),
    },
    {
      name: 'AccountSecretsRepository.saveIfNewer: a newer secret replaces the copy',
      run: async () =>
        expect(
          await accountSecrets.saveIfNewer(ACCOUNT_OWNER, {
            sealed: `v1.rotated-${++rotations}`,
            rotatedAt: day(rotations),
          }),
        ).toBe(true),
    },
    {
      name: 'AccountSecretsRepository.saveIfNewer: an older secret read late changes nothing',
      run: async () =>
        expect(await accountSecrets.saveIfNewer(ACCOUNT_OWNER, { sealed: 'v1.old', rotatedAt: day(0) })).toBe(false),
    },
    {
      name: "AccountSecretsRepository.saveIfNewer: a new account's secret is inserted",
      run: async () =>
        expect(
          await accountSecrets.saveIfNewer(
            { accountId: `account-new-${++createdAccounts}` },
            {
              sealed: 'v1.new',
              rotatedAt: day(1),
            },
          ),
        ).toBe(true),
    },
    {
      name: "AccountSecretsRepository.findForAccount: the account's newest secret",
      run: async () => expect(await accountSecrets.findForAccount(ACCOUNT_OWNER)).toMatchObject({ _id: ACCOUNT }),
    },
    {
      name: 'AccountSecretsRepository.findForAccount: an account never seen has none',
      run: async () => expect(await accountSecrets.findForAccount({ accountId: 'account-never-seen' })).toBeUndefined(),
    },
    {
      name: 'InstallationCopiesRepository.saveIfNewer: a newer revision replaces the copy',
      run: async () => expect(await installations.saveIfNewer(OWNER, snapshot(++revision))).toBe(true),
    },
    {
      name: 'InstallationCopiesRepository.saveIfNewer: a replayed older revision changes nothing',
      run: async () => expect(await installations.saveIfNewer(OWNER, snapshot(1))).toBe(false),
    },
    {
      name: 'InstallationCopiesRepository.saveIfNewer: a new installation is inserted',
      run: async () => {
        const n = ++createdInstallations;
        expect(
          await installations.saveIfNewer(
            { tenantId: `tenant-new-${n}`, installationId: `installation-new-${n}` },
            snapshot(1),
          ),
        ).toBe(true);
      },
    },
    {
      name: "InstallationCopiesRepository.findForTenant: one of the tenant's installations",
      run: async () =>
        expect(await installations.findForTenant({ tenantId: TENANT }, INSTALLATION)).toMatchObject({
          _id: INSTALLATION,
          tenantId: TENANT,
        }),
    },
    {
      name: "InstallationCopiesRepository.findForTenant: another tenant's installation is not found",
      run: async () =>
        expect(await installations.findForTenant({ tenantId: TENANT }, 'installation-next-door')).toBeUndefined(),
    },
    {
      name: "InstallationCopiesRepository.listForTenant: the tenant's installations",
      run: async () =>
        expect((await installations.listForTenant({ tenantId: TENANT })).map((i) => i._id).sort()).toEqual(
          ['installation-2', 'installation-3', INSTALLATION].sort(),
        ),
    },
    {
      name: 'InstallationCopiesRepository.setSandboxFailures: the next attempts of a held copy fail',
      run: async () => {
        expect(await installations.setSandboxFailures(OWNER, 8)).toBe(true);
        expect(
          await installations.setSandboxFailures({ tenantId: 'tenant-next-door', installationId: INSTALLATION }, 8),
        ).toBe(false);
      },
    },
    {
      name: 'InstallationCopiesRepository.takeSandboxFailure: one failure taken while any is left',
      run: async () => {
        await installations.setSandboxFailures(OWNER, 1);
        expect(await installations.takeSandboxFailure(OWNER)).toBe(true);
        expect(await installations.takeSandboxFailure(OWNER)).toBe(false);
      },
    },
    {
      name: 'MetaRepository.claimSendingSince: a later start reads the first one back',
      run: async () => expect(await meta.claimSendingSince(new Date())).toEqual(SENDING_SINCE),
    },
  ];

  // 31 runs a case: the median stays put when other tests load the shared engine for a moment.
  const timings = await timeLookups(cases, growTo, 31);
  console.log(describeTimings(timings));

  // (1) No query grows with the data.
  if (timings.some(growsWithData))
    throw new Error(`queries that grow with the data (a scan):\n${describeTimings(timings)}`);
  // (2) Every repository method has a case.
  const methods = [deliveries, installations, accountSecrets, meta].flatMap((repository) => queryMethodsOf(repository));
  expect([...new Set(cases.map((c) => methodOfCase(c.name)))].sort()).toEqual([...new Set(methods)].sort());
  // (3) The writes wrote: each timed update hit its document every time.
  const raw = db.collection<DeliveryDoc & { [OUTBOX]?: unknown[] }>(DELIVERIES);
  expect((await raw.findOne({ _id: 'delivery-0' }))!.attempts).toHaveLength(2 + recorded);
  const retried = (await raw.findOne({ _id: 'delivery-1' }))!;
  expect({ attempts: retried.attempts.length, staged: retried[OUTBOX]?.length }).toEqual({
    attempts: 2 + staged,
    staged,
  });
  expect((await raw.findOne({ _id: 'delivery-4' }))!.round).toBe(round);
  expect((await installations.findForTenant({ tenantId: TENANT }, INSTALLATION))!.revision).toBe(revision);
  expect(await raw.countDocuments({ tenantId: TENANT, installationId: 'installation-3' })).toBe(createdDeliveries);
  expect(await raw.countDocuments({ accountId: ACCOUNT, providerDeliveryId: 'provider-delivery-3' })).toBe(
    createdCallbacks,
  );
  const retriedCallback = (await raw.findOne({ _id: 'callback-6' }))!;
  expect(retriedCallback[OUTBOX]?.length).toBeGreaterThan(0);
  expect((await raw.findOne({ _id: 'callback-5' }))!.round).toBe(callbackRound);
  expect((await raw.findOne({ _id: 'left-true' }))!).toMatchObject({ sendStartedAt: day(0) });
  // Only a terminal callback is marked: the account's nonterminal one of the burst stays as it was.
  await deliveries.markSending(ACCOUNT_OWNER, 'burst-false', day(9));
  expect(await raw.findOne({ _id: 'burst-false' })).not.toHaveProperty('sendStartedAt');
  expect(await accountSecrets.findForAccount(ACCOUNT_OWNER)).toEqual({
    _id: ACCOUNT,
    sealed: `v1.rotated-${rotations}`,
    rotatedAt: day(rotations),
  });
  expect(
    await installations.findForTenant(
      { tenantId: `tenant-new-${createdInstallations}` },
      `installation-new-${createdInstallations}`,
    ),
  ).toBeDefined();
});
