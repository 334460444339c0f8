import {
  compareCallback,
  metersBetween,
  NO_TRACKING,
  payloadFingerprint,
  selectCallback,
  shouldSendLocation,
  toMinorUnits,
  type DeliveryOrder,
} from './delivery';

const order = (overrides: Partial<DeliveryOrder> = {}): DeliveryOrder => ({
  platformReference: 'ref-1',
  pickupAddress: 'A',
  pickupLat: 52.5,
  pickupLng: 13.4,
  customerName: 'Ada',
  customerPhone: '+49 1',
  customerEmail: null,
  dropoffAddress: 'B',
  dropoffLat: 52.51,
  dropoffLng: 13.41,
  paymentMethod: 'card',
  amountMinor: 950,
  deliveryFeeMinor: null,
  currency: 'EUR',
  notes: null,
  preparationTimeMinutes: 10,
  scheduledDeliveryAtUtc: null,
  ...overrides,
});

describe('toMinorUnits', () => {
  it.each([
    [0, 0],
    [9.5, 950],
    [0.29, 29],
    [12.34, 1234],
    [9_999_999_999.99, 999_999_999_999],
  ])('reads %p as %p minor units', (amount, minor) => expect(toMinorUnits(amount)).toBe(minor));

  it.each([[10.005], [0.001], [1e-7], [-1]])('refuses %p (more than two decimals, or negative)', (amount) =>
    expect(toMinorUnits(amount)).toBeUndefined(),
  );
});

describe('payloadFingerprint', () => {
  it('is the same for the same meaning, another for any change', () => {
    const base = payloadFingerprint(order({ scheduledDeliveryAtUtc: new Date('2030-01-01T12:00:00+02:00') }));
    expect(payloadFingerprint(order({ scheduledDeliveryAtUtc: new Date('2030-01-01T10:00:00Z') }))).toBe(base);
    expect(payloadFingerprint(order({ scheduledDeliveryAtUtc: new Date('2030-01-01T10:00:01Z') }))).not.toBe(base);
    expect(payloadFingerprint(order({ notes: 'x' }))).not.toBe(payloadFingerprint(order()));
    expect(payloadFingerprint(order({ amountMinor: 951 }))).not.toBe(payloadFingerprint(order()));
  });
});

describe('callbacks', () => {
  it('selects the request URL, else the account URL, else none', () => {
    expect(selectCallback('https://a/x', 'https://b/y')).toEqual({ source: 'request', url: 'https://a/x' });
    expect(selectCallback(null, 'https://b/y')).toEqual({ source: 'account', url: 'https://b/y' });
    expect(selectCallback(null, null)).toEqual({ source: 'none', url: null });
  });

  it('keeps the original on a replay without a URL; any other URL, or one the original lacked, is a change', () => {
    const requested = { source: 'request' as const, requestedUrl: 'https://a/x' };
    expect(compareCallback(requested, null)).toBe('same');
    expect(compareCallback(requested, 'https://a/x')).toBe('same');
    expect(compareCallback(requested, 'https://a/other')).toBe('changed');
    expect(compareCallback({ source: 'account', requestedUrl: null }, 'https://b/y')).toBe('changed');
    expect(compareCallback({ source: 'none', requestedUrl: null }, null)).toBe('same');
  });
});

describe('location coalescing', () => {
  const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
  const last = { at: at(0), lat: 52.5, lng: 13.4 };

  it('sends the first position, then at most one per interval, and none for a move under the minimum', () => {
    expect(shouldSendLocation(null, { lat: 52.5, lng: 13.4 }, at(0))).toBe(true);
    expect(shouldSendLocation(last, { lat: 52.51, lng: 13.4 }, at(4_999))).toBe(false);
    expect(shouldSendLocation(last, { lat: 52.51, lng: 13.4 }, at(5_000))).toBe(true);
    expect(shouldSendLocation(last, { lat: 52.50005, lng: 13.4 }, at(60_000))).toBe(false); // about 5.6 m
  });

  it('measures distances on the sphere', () => {
    expect(metersBetween(52.5, 13.4, 52.51, 13.4)).toBeCloseTo(1_112, -1);
    expect(NO_TRACKING(at(0)).driverLat).toBeNull();
  });
});
