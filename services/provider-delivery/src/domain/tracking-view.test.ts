import { NO_TRACKING, type Delivery, type DeliveryOrder } from './delivery';
import { STATUSES, TERMINAL } from './lifecycle';
import { firstName, publicTrackingView, roundCoordinate } from './tracking-view';

const now = new Date('2030-01-01T10:00:00Z');
const order: DeliveryOrder = {
  platformReference: 'plat-ref-123',
  pickupAddress: 'Torstraße 1, 10119 Berlin',
  pickupLat: 52.529123,
  pickupLng: 13.401456,
  customerName: 'Ada Customer',
  customerPhone: '+49 30 1234567',
  customerEmail: 'ada@example.com',
  dropoffAddress: 'Kastanienallee 10, 10435 Berlin',
  dropoffLat: 52.538461,
  dropoffLng: 13.409549,
  paymentMethod: 'card',
  amountMinor: 2350,
  deliveryFeeMinor: 299,
  currency: 'EUR',
  notes: 'Ring twice',
  preparationTimeMinutes: 15,
  scheduledDeliveryAtUtc: null,
};
const eta = new Date('2030-01-01T10:20:00Z');
const delivery = (overrides: Partial<Delivery> = {}): Delivery => ({
  id: 'd',
  accountId: 'a',
  order,
  status: 'on_the_way',
  statusEventTimeUtc: new Date('2030-01-01T09:50:00Z'),
  tracking: {
    ...NO_TRACKING(new Date('2030-01-01T09:55:00Z')),
    driverName: 'Dana Driver',
    driverPhone: '+49 170 7654321',
    driverLat: 52.531,
    driverLng: 13.403,
    trackingUrl: 'https://provider.example/track/trk_AAAAAAAAAAAAAAAAAAAAAA',
    estimatedDeliveryAtUtc: eta,
  },
  lastSentLocation: null,
  returnReasonCode: null,
  timeScale: 1,
  trackingToken: 'trk_AAAAAAAAAAAAAAAAAAAAAA',
  driverId: null,
  offers: [],
  dispatchAt: null,
  failureReason: null,
  version: 1,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...overrides,
});

it('shows the status, the driver by first name, their position, the restaurant and the estimate', () => {
  expect(publicTrackingView(delivery(), now)).toEqual({
    status: 'on_the_way',
    statusText: 'On the way to you',
    terminal: false,
    driverFirstName: 'Dana',
    driverPosition: { lat: 52.531, lng: 13.403 },
    pickup: { lat: 52.529123, lng: 13.401456 },
    destination: { lat: 52.538, lng: 13.41 },
    estimatedDeliveryAtUtc: eta,
    updatedAtUtc: new Date('2030-01-01T09:55:00Z'),
    servedAtUtc: now,
  });
});

it('never carries the phone numbers, the customer, the addresses, the reference, the notes or money', () => {
  const json = JSON.stringify(publicTrackingView(delivery(), now));
  for (const secret of [
    '+49 170 7654321',
    '7654321',
    'Driver', // the driver's surname
    'Ada',
    'Customer',
    '1234567',
    'ada@example.com',
    'Torstraße',
    'Kastanienallee',
    'plat-ref-123',
    'Ring twice',
    'card',
    '2350',
    '23.5',
    '299',
    'EUR',
    'trk_',
    'https://',
    '52.538461',
    '13.409549',
  ])
    expect([secret, json.includes(secret)]).toEqual([secret, false]);
  expect(Object.keys(publicTrackingView(delivery(), now)).sort()).toEqual(
    [
      'destination',
      'driverFirstName',
      'driverPosition',
      'estimatedDeliveryAtUtc',
      'pickup',
      'servedAtUtc',
      'status',
      'statusText',
      'terminal',
      'updatedAtUtc',
    ].sort(),
  );
});

it('rounds the destination to three decimals (about 100 m), never the restaurant', () => {
  expect(roundCoordinate(52.538461)).toBe(52.538);
  expect(roundCoordinate(13.409549)).toBe(13.41);
  expect(roundCoordinate(-0.0126)).toBe(-0.013);
  const view = publicTrackingView(delivery(), now);
  expect(view.destination).toEqual({ lat: 52.538, lng: 13.41 });
  expect(view.pickup).toEqual({ lat: order.pickupLat, lng: order.pickupLng });
});

it('takes the first word of the driver name, and nothing for an unknown or blank one', () => {
  expect(firstName('Dana Driver')).toBe('Dana');
  expect(firstName('  Dana   Maria Driver ')).toBe('Dana');
  expect(firstName('Dana')).toBe('Dana');
  expect(firstName('   ')).toBeNull();
  expect(firstName(null)).toBeNull();
});

it('has no driver and no position before one is known', () => {
  const view = publicTrackingView(delivery({ status: 'provider_accepted', tracking: NO_TRACKING(new Date(0)) }), now);
  expect(view).toMatchObject({ statusText: 'Finding a driver', driverFirstName: null, driverPosition: null });
  expect(view.estimatedDeliveryAtUtc).toBeNull();
});

it('after a terminal status: no driver, no position, no estimate, and says it ended', () => {
  for (const status of TERMINAL) {
    const view = publicTrackingView(delivery({ status }), now);
    expect([status, view.terminal, view.driverFirstName, view.driverPosition, view.estimatedDeliveryAtUtc]).toEqual([
      status,
      true,
      null,
      null,
      null,
    ]);
  }
  expect(publicTrackingView(delivery({ status: 'delivered' }), now).statusText).toBe('Delivered');
});

it('drops an estimate left from before a return, but still shows the driver', () => {
  for (const status of ['return_requested', 'returning_to_origin'] as const) {
    const view = publicTrackingView(delivery({ status }), now);
    expect(view).toMatchObject({ terminal: false, driverFirstName: 'Dana', estimatedDeliveryAtUtc: null });
    expect(view.driverPosition).not.toBeNull();
  }
});

it('has a text for every status of the contract, and only terminal ones are terminal', () => {
  for (const status of STATUSES) {
    const view = publicTrackingView(delivery({ status }), now);
    expect(view.statusText.length).toBeGreaterThan(0);
    expect(view.statusText).not.toContain('_');
    expect(view.terminal).toBe(TERMINAL.includes(status));
  }
});

it('dates the data by the later of the status and the tracking, and the view by now', () => {
  const later = new Date('2030-01-01T09:59:00Z');
  expect(publicTrackingView(delivery({ statusEventTimeUtc: later }), now).updatedAtUtc).toEqual(later);
  expect(publicTrackingView(delivery(), now).updatedAtUtc).toEqual(new Date('2030-01-01T09:55:00Z'));
  expect(publicTrackingView(delivery(), now).servedAtUtc).toBe(now);
});
