import { AppError } from '@marketplace/errors';
import type { OutgoingEvent } from '@marketplace/events';
import { captureLogger } from '@marketplace/testing';
import { NO_TRACKING, type DeliveryChanges, type StoredDelivery } from '../../domain/delivery';
import type { ProviderContext } from '../context';
import type { AccountPublishing, ProviderMetrics, ProviderRepositories, PublishingCache, StagedEvents } from '../ports';
import { changeDelivery } from './change-delivery';

// The compare-and-set loop every change of a delivery goes through, on in-memory fakes of its
// ports: a lost race reads and decides again, the end of a delivery frees its driver and keeps
// nothing personal, and the staged events are published after the write.

const now = new Date('2030-01-01T12:00:00Z');
const owner = { accountId: 'acc' };

const carried = (): StoredDelivery => ({
  id: 'd1',
  accountId: 'acc',
  order: {
    platformReference: 'order-1',
    pickupLat: 52.5,
    pickupLng: 13.4,
    dropoffLat: 52.51,
    dropoffLng: 13.4,
    preparationTimeMinutes: 0,
    scheduledDeliveryAtUtc: null,
  } as StoredDelivery['order'],
  status: 'driver_assigned',
  statusEventTimeUtc: now,
  tracking: {
    ...NO_TRACKING(now),
    driverName: 'Dana',
    driverPhone: '+4915100000000',
    driverLat: 52.5,
    driverLng: 13.4,
  },
  lastSentLocation: null,
  returnReasonCode: null,
  timeScale: 1,
  trackingToken: 'trk_0123456789abcdefghijkl',
  driverId: 'driver-1',
  offers: [],
  dispatchAt: null,
  failureReason: null,
  version: 3,
  createdAt: now,
  updatedAt: now,
  callbackSource: 'none',
  callbackUrlSealed: null,
});

type FakeDeliveries = Pick<ProviderRepositories['deliveries'], 'find' | 'update'>;
type FakeDrivers = Pick<ProviderRepositories['drivers'], 'release'>;

/** One delivery in memory, written under its version; `racers` other writers come first that many times. */
function fakes(stored: StoredDelivery, racers = 0) {
  let current = stored;
  let races = racers;
  const written: { changes: DeliveryChanges; events: OutgoingEvent[] }[] = [];
  const published: string[] = [];
  const released: string[] = [];
  const statuses: string[] = [];
  const deliveries: FakeDeliveries = {
    find: async (o, id) => (o.accountId === current.accountId && id === current.id ? current : undefined),
    update: async (_o, _id, version, changes, events) => {
      if (races > 0) {
        races--;
        current = { ...current, version: current.version + 1 };
        return false;
      }
      if (version !== current.version) return false;
      written.push({ changes, events });
      current = { ...current, ...changes, version: current.version + 1 };
      return true;
    },
  };
  const events: StagedEvents = {
    publishDelivery: async (id) => {
      published.push(id);
    },
    publishInsertedDelivery: async () => undefined,
    publishAccount: async () => undefined,
  };
  const drivers: FakeDrivers = {
    release: async (_o, driverId) => {
      released.push(driverId);
    },
  };
  const publishing: AccountPublishing = {
    secret: { sealed: 'sealed-secret', rotatedAt: now.toISOString() },
    eventTypes: ['delivery.cancelled', 'delivery.failed'],
  };
  const transportSecrets: PublishingCache = { of: async () => publishing, forget: () => undefined };
  const metrics: ProviderMetrics = {
    deliveryCreated: () => undefined,
    deliveryStatusChanged: (status) => statuses.push(status),
  };
  const ctx = {
    store: { deliveries, drivers },
    events,
    transportSecrets,
    metrics,
    logger: captureLogger().logger,
    now: () => now,
  } as unknown as ProviderContext;
  return { ctx, written, published, released, statuses, current: () => current };
}

describe('changeDelivery', () => {
  it('ends a delivery: no more dispatch, no driver data, the driver freed, its event published', async () => {
    const f = fakes(carried());
    const answer = await changeDelivery(f.ctx, owner, 'd1', () => ({
      changes: { status: 'cancelled', statusEventTimeUtc: now },
      events: ['delivery.cancelled'],
      answer: 'done',
    }));
    expect(answer).toBe('done');
    const [write] = f.written;
    expect(write!.changes).toMatchObject({ status: 'cancelled', dispatchAt: null, updatedAt: now });
    expect(write!.changes.tracking).toMatchObject({ driverName: null, driverPhone: null, driverLat: null });
    expect(write!.events.map((e) => e.type)).toEqual(['delivery.cancelled']);
    expect(f.published).toEqual(['d1']);
    expect(f.released).toEqual(['driver-1']);
    expect(f.statuses).toEqual(['cancelled']);
  });

  it('answers without writing when the rule changes nothing', async () => {
    const f = fakes(carried());
    expect(await changeDelivery(f.ctx, owner, 'd1', () => ({ answer: 42 }))).toBe(42);
    expect(f.written).toEqual([]);
    expect(f.published).toEqual([]);
  });

  it('publishes nothing when the account receives none of the events', async () => {
    const f = fakes(carried());
    await changeDelivery(f.ctx, owner, 'd1', () => ({
      changes: { returnReasonCode: 'customer' },
      events: ['delivery.return_requested'],
      answer: undefined,
    }));
    expect(f.written[0]!.events).toEqual([]);
    expect(f.published).toEqual([]);
    expect(f.released).toEqual([]);
  });

  it('reads and decides again after a lost race, on the state that won', async () => {
    const f = fakes(carried(), 2);
    const seen: number[] = [];
    await changeDelivery(f.ctx, owner, 'd1', (delivery) => {
      seen.push(delivery.version);
      return { changes: { failureReason: 'x' }, answer: undefined };
    });
    expect(seen).toEqual([3, 4, 5]);
    expect(f.current().version).toBe(6);
  });

  it('is 503 resource.busy after five lost races, and 404 for a delivery of another account', async () => {
    const busy = fakes(carried(), 5);
    const decide = () => ({ changes: { failureReason: 'x' }, answer: undefined });
    await expect(changeDelivery(busy.ctx, owner, 'd1', decide)).rejects.toMatchObject({ code: 'resource.busy' });
    const other = fakes(carried());
    const error = await changeDelivery(other.ctx, { accountId: 'other' }, 'd1', decide).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'delivery.not_found' });
  });
});
