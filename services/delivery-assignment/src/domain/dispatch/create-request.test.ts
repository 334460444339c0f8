import type { OrderFacts, Pickup } from '../delivery';
import { contractAmount, createRequestOf, type CreateRequestInput, type Dropoff } from './create-request';

describe('contractAmount (minor units as the contract amount, at most two decimals)', () => {
  it.each<[number, string, number]>([
    // 2 decimals: exact.
    [1999, 'EUR', 19.99],
    [0, 'EUR', 0],
    [1, 'EUR', 0.01],
    [10, 'EUR', 0.1],
    [1005, 'USD', 10.05],
    [29, 'USD', 0.29],
    [115, 'USD', 1.15],
    [435, 'USD', 4.35],
    [999_999_999_999, 'EUR', 9_999_999_999.99],
    // 0 decimals: exact.
    [500, 'JPY', 500],
    [0, 'JPY', 0],
    [1, 'KRW', 1],
    // 3 decimals: rounded once, half up, to 2 (12.345 → 12.35, 12.344 → 12.34).
    [12345, 'KWD', 12.35],
    [12344, 'KWD', 12.34],
    [12340, 'KWD', 12.34],
    [12349, 'KWD', 12.35],
    [5, 'KWD', 0.01],
    [4, 'KWD', 0],
    [1005, 'BHD', 1.01],
    [0, 'KWD', 0],
    // 4 decimals: 12.3456 → 12.35, 12.3450 → 12.35 (half up), 12.3449 → 12.34.
    [123456, 'CLF', 12.35],
    [123450, 'CLF', 12.35],
    [123449, 'CLF', 12.34],
    [50, 'CLF', 0.01],
    [49, 'CLF', 0],
  ])('%i minor units of %s are %d', (minor, currency, amount) => {
    expect(contractAmount(minor, currency)).toBe(amount);
  });

  it('never gives more than two decimals', () => {
    for (const [minor, currency] of [
      [12345, 'KWD'],
      [123456, 'CLF'],
      [1999, 'EUR'],
      [333, 'KWD'],
      [33333, 'CLF'],
    ] as const) {
      const amount = contractAmount(minor, currency);
      expect(Number(amount.toFixed(2))).toBe(amount);
    }
  });
});

const pickup: Pickup = {
  branchId: 'branch-1',
  name: 'Mitte',
  address: 'Torstrasse 1, 10119 Berlin, DE',
  latitude: 52.53,
  longitude: 13.4,
  externalLocationId: 'loc-mitte',
};

const order: OrderFacts = {
  orderNumber: '1001',
  branchId: 'branch-1',
  orderMode: 1,
  status: 'Accepted',
  paymentMethod: 1,
  currencyCode: 'EUR',
  grandTotalMinor: 2350,
  deliveryFeeMinor: 299,
  dropoffSealed: 'sealed-dropoff',
};

const dropoff: Dropoff = {
  customerName: 'Ada Lovelace',
  customerPhone: '+49 30 1234567',
  addressLine: 'Invalidenstrasse 50, 10115 Berlin, DE',
  latitude: 52.531,
  longitude: 13.38,
  addressNotes: 'Back door, 3rd floor',
  customerNotes: 'No cutlery',
};

const CALLBACK = 'https://marketplace.example/api/provider-callbacks/v1/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

function input(overrides: Partial<CreateRequestInput> = {}): CreateRequestInput {
  return {
    assignmentId: 'asg-7f3c',
    order,
    pickup,
    dropoff,
    callbackUrl: CALLBACK,
    preparationTimeMinutes: 15,
    ...overrides,
  };
}

const request = (overrides: Partial<CreateRequestInput> = {}) => {
  const built = createRequestOf(input(overrides));
  if ('missing' in built) throw new Error(`expected a request, got: ${built.missing}`);
  return built;
};

describe('createRequestOf', () => {
  it('builds the contract create request', () => {
    expect(createRequestOf(input())).toEqual({
      platformReference: 'asg-7f3c',
      idempotencyKey: 'asg-7f3c',
      pickupAddress: 'Torstrasse 1, 10119 Berlin, DE',
      pickupLat: 52.53,
      pickupLng: 13.4,
      customerName: 'Ada Lovelace',
      customerPhone: '+49 30 1234567',
      dropoffAddress: 'Invalidenstrasse 50, 10115 Berlin, DE',
      dropoffLat: 52.531,
      dropoffLng: 13.38,
      paymentMethod: 'cash',
      amount: 23.5,
      deliveryFeeAmount: 2.99,
      currency: 'EUR',
      notes: 'Order 1001 from Mitte. Address: Back door, 3rd floor Customer: No cutlery',
      preparationTimeMinutes: 15,
      webhook: { url: CALLBACK },
    });
  });

  it('is the same request on every call (a retry names the same delivery)', () => {
    expect(createRequestOf(input())).toEqual(createRequestOf(input()));
  });

  it('payment method 1 is cash, 2 (card on delivery) is card', () => {
    expect(request().paymentMethod).toBe('cash');
    expect(request({ order: { ...order, paymentMethod: 2 } }).paymentMethod).toBe('card');
  });

  it('no callback URL: the webhook is left out (the platform polls)', () => {
    const built = request({ callbackUrl: null });
    expect(built).not.toHaveProperty('webhook');
    expect(built.platformReference).toBe('asg-7f3c');
  });

  it('no delivery fee known: null', () => {
    const { deliveryFeeMinor: _fee, ...withoutFee } = order;
    expect(request({ order: withoutFee }).deliveryFeeAmount).toBeNull();
    expect(request({ order: { ...order, deliveryFeeMinor: 0 } }).deliveryFeeAmount).toBe(0);
  });

  it('amounts of a 3-decimal currency are rounded to two', () => {
    const built = request({
      order: { ...order, currencyCode: 'KWD', grandTotalMinor: 12345, deliveryFeeMinor: 500 },
    });
    expect(built).toMatchObject({ amount: 12.35, deliveryFeeAmount: 0.5, currency: 'KWD' });
  });

  it('a 0-decimal currency is whole', () => {
    const built = request({ order: { ...order, currencyCode: 'JPY', grandTotalMinor: 1500, deliveryFeeMinor: 300 } });
    expect(built).toMatchObject({ amount: 1500, deliveryFeeAmount: 300, currency: 'JPY' });
  });

  it('the preparation time is the one given', () => {
    expect(request({ preparationTimeMinutes: 0 }).preparationTimeMinutes).toBe(0);
    expect(request({ preparationTimeMinutes: 240 }).preparationTimeMinutes).toBe(240);
  });
});

describe('createRequestOf: the notes', () => {
  it.each<[string | null, string | null, string]>([
    [null, null, 'Order 1001 from Mitte.'],
    ['', '', 'Order 1001 from Mitte.'],
    ['Ring twice', null, 'Order 1001 from Mitte. Address: Ring twice'],
    [null, 'Extra napkins', 'Order 1001 from Mitte. Customer: Extra napkins'],
    ['Ring twice', 'Extra napkins', 'Order 1001 from Mitte. Address: Ring twice Customer: Extra napkins'],
  ])('address notes %j and customer notes %j: %j', (addressNotes, customerNotes, notes) => {
    expect(request({ dropoff: { ...dropoff, addressNotes, customerNotes } }).notes).toBe(notes);
  });

  it('name the order number and the branch', () => {
    const built = request({
      order: { ...order, orderNumber: 'A-77' },
      pickup: { ...pickup, name: 'Kreuzberg' },
      dropoff: { ...dropoff, addressNotes: null, customerNotes: null },
    });
    expect(built.notes).toBe('Order A-77 from Kreuzberg.');
  });
});

describe('createRequestOf: the contract field limits (cut with an ellipsis)', () => {
  it.each<[string, number, (text: string) => Partial<CreateRequestInput>, (r: ReturnType<typeof request>) => string]>([
    ['pickupAddress', 500, (t) => ({ pickup: { ...pickup, address: t } }), (r) => r.pickupAddress],
    ['dropoffAddress', 500, (t) => ({ dropoff: { ...dropoff, addressLine: t } }), (r) => r.dropoffAddress],
    ['customerName', 200, (t) => ({ dropoff: { ...dropoff, customerName: t } }), (r) => r.customerName],
    ['customerPhone', 50, (t) => ({ dropoff: { ...dropoff, customerPhone: t } }), (r) => r.customerPhone],
  ])('%s: up to %i characters kept as they are, one more cut to the limit', (_, max, set, read) => {
    const exact = 'x'.repeat(max);
    expect(read(request(set(exact)))).toBe(exact);
    const over = read(request(set('y'.repeat(max + 1))));
    expect(over).toBe(`${'y'.repeat(max - 1)}…`);
    expect(over).toHaveLength(max);
    const far = read(request(set('z'.repeat(max * 3))));
    expect(far).toBe(`${'z'.repeat(max - 1)}…`);
  });

  it('notes: up to 2,000 characters kept, longer cut to 2,000 ending in an ellipsis', () => {
    const prefix = 'Order 1001 from Mitte. Customer: ';
    const fits = request({
      dropoff: { ...dropoff, addressNotes: null, customerNotes: 'n'.repeat(2000 - prefix.length) },
    });
    expect(fits.notes).toBe(`${prefix}${'n'.repeat(2000 - prefix.length)}`);
    expect(fits.notes).toHaveLength(2000);

    const cut = request({ dropoff: { ...dropoff, addressNotes: null, customerNotes: 'n'.repeat(3000) } });
    expect(cut.notes).toHaveLength(2000);
    expect(cut.notes).toBe(`${prefix}${'n'.repeat(2000 - prefix.length - 1)}…`);
  });

  it('the customer notes are cut first: the order number, branch and address notes stay', () => {
    const built = request({ dropoff: { ...dropoff, addressNotes: 'Back door', customerNotes: 'c'.repeat(5000) } });
    expect(built.notes!.startsWith('Order 1001 from Mitte. Address: Back door Customer: ccc')).toBe(true);
    expect(built.notes!.endsWith('c…')).toBe(true);
  });
});

describe('createRequestOf: an order that cannot be dispatched', () => {
  it.each(['currencyCode', 'grandTotalMinor', 'paymentMethod'] as const)(
    'without %s (an order kept before its totals were): missing',
    (field) => {
      const { [field]: _dropped, ...rest } = order;
      expect(createRequestOf(input({ order: rest }))).toEqual({
        missing: 'the order was created before its totals were kept here',
      });
    },
  );

  it.each([0, 3, 4, 99])('payment method %i has no name in the contract: missing', (paymentMethod) => {
    expect(createRequestOf(input({ order: { ...order, paymentMethod } }))).toEqual({
      missing: `the payment method ${paymentMethod} has no name in the contract`,
    });
  });
});

describe('createRequestOf: cutting text', () => {
  it('never cuts inside a surrogate pair', () => {
    const name = `${'a'.repeat(198)}😀b`;
    const built = createRequestOf(input({ dropoff: { ...dropoff, customerName: name } }));
    if ('missing' in built) throw new Error('built nothing');
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(built.customerName)).toBe(false);
    expect(built.customerName.length).toBeLessThanOrEqual(200);
    expect(built.customerName.endsWith('…')).toBe(true);
  });
});
