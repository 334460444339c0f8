import type { OutgoingEvent } from '@marketplace/events';
import { captureLogger } from '@marketplace/testing';
import { NO_TRACKING, type StoredDelivery } from '../../domain/delivery';
import type { Driver } from '../../domain/driver';
import type { ProviderContext } from '../context';
import type { ProviderRepositories, PublishingCache, StagedEvents } from '../ports';
import { acceptOffer } from './accept-offer';

// A driver takes the delivery offered to them, on in-memory fakes of the ports: first their own
// record (the offer must still run), then the delivery; a delivery that moved on meanwhile gives
// the driver back and answers 409 `offer.not_available`.

const now = new Date('2030-01-01T12:00:00Z');
const later = new Date('2030-01-01T12:00:30Z');

const driver: Driver = {
  id: 'driver-1',
  accountId: 'acc',
  name: 'Dana',
  phone: '+4915100000000',
  vehicle: 'bicycle',
  shift: null,
  online: true,
  position: { lat: 52.5, lng: 13.4, at: now },
  activeDeliveryId: null,
  offer: { providerDeliveryId: 'd1', expiresAt: later },
  simulated: false,
  createdAt: now,
  updatedAt: now,
};

const offered = (overrides: Partial<StoredDelivery> = {}): StoredDelivery => ({
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
  status: 'provider_accepted',
  statusEventTimeUtc: now,
  tracking: NO_TRACKING(now),
  lastSentLocation: null,
  returnReasonCode: null,
  timeScale: 1,
  trackingToken: 'trk_0123456789abcdefghijkl',
  driverId: null,
  offers: [{ driverId: 'driver-1', offeredAt: now, expiresAt: later, outcome: 'pending' }],
  dispatchAt: later,
  failureReason: null,
  version: 1,
  createdAt: now,
  updatedAt: now,
  callbackSource: 'none',
  callbackUrlSealed: null,
  ...overrides,
});

function fakes(stored: StoredDelivery, offerStillRuns = true) {
  let current = stored;
  const events: OutgoingEvent[] = [];
  const released: string[] = [];
  let taken = 0;
  const deliveries: Pick<ProviderRepositories['deliveries'], 'find' | 'update'> = {
    find: async (o, id) => (o.accountId === current.accountId && id === current.id ? current : undefined),
    update: async (_o, _id, version, changes, staged) => {
      if (version !== current.version) return false;
      current = { ...current, ...changes, version: version + 1 };
      events.push(...staged);
      return true;
    },
  };
  const drivers: Pick<ProviderRepositories['drivers'], 'takeOffered' | 'release'> = {
    takeOffered: async () => {
      taken++;
      return offerStillRuns;
    },
    release: async (_o, driverId) => {
      released.push(driverId);
    },
  };
  const transportSecrets: PublishingCache = {
    of: async () => ({ secret: { sealed: 's', rotatedAt: now.toISOString() }, eventTypes: ['driver.assigned'] }),
    forget: () => undefined,
  };
  const staged: Pick<StagedEvents, 'publishDelivery'> = { publishDelivery: async () => undefined };
  const ctx = {
    store: { deliveries, drivers },
    events: staged,
    transportSecrets,
    metrics: { deliveryCreated: () => undefined, deliveryStatusChanged: () => undefined },
    publicBaseUrl: 'https://track.example',
    logger: captureLogger().logger,
    now: () => now,
  } as unknown as ProviderContext;
  return { ctx, events, released, taken: () => taken, current: () => current };
}

describe('acceptOffer', () => {
  it('assigns the driver: their name and position, the tracking page, the offer accepted, driver.assigned sent', async () => {
    const f = fakes(offered());
    const delivery = await acceptOffer(f.ctx, driver, 'd1');
    expect(delivery).toMatchObject({ status: 'driver_assigned', driverId: 'driver-1' });
    expect(f.current()).toMatchObject({ status: 'driver_assigned', driverId: 'driver-1', dispatchAt: null });
    expect(f.current().offers[0]!.outcome).toBe('accepted');
    expect(f.current().tracking).toMatchObject({
      driverName: 'Dana',
      driverLat: 52.5,
      trackingUrl: 'https://track.example/track/trk_0123456789abcdefghijkl',
    });
    expect(f.events.map((e) => e.type)).toEqual(['driver.assigned']);
    expect(f.released).toEqual([]);
  });

  it('is 409 offer.not_available without touching the delivery when the offer no longer runs', async () => {
    const f = fakes(offered(), false);
    await expect(acceptOffer(f.ctx, driver, 'd1')).rejects.toMatchObject({ code: 'offer.not_available' });
    expect(f.current().version).toBe(1);
    expect(f.released).toEqual([]);
  });

  it('gives the driver back when the delivery moved on meanwhile (cancelled)', async () => {
    const f = fakes(offered({ status: 'cancelled', offers: [] }));
    await expect(acceptOffer(f.ctx, driver, 'd1')).rejects.toMatchObject({ code: 'offer.not_available' });
    expect(f.taken()).toBe(1);
    expect(f.released).toEqual(['driver-1']);
    expect(f.events).toEqual([]);
  });
});
