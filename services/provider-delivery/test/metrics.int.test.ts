import { createRequest, ProviderUnderTest } from './support/provider';

// What provider-delivery counts at /metrics, moved by real requests to its process: deliveries
// created by outcome, status changes by status, and requests refused by the per-account limit.
// Labels never name an account or a delivery.

jest.setTimeout(60_000);

let provider: ProviderUnderTest;

beforeAll(async () => {
  provider = await ProviderUnderTest.start();
});
afterAll(async () => provider?.stop());

async function scrape(): Promise<string> {
  return (await fetch(`${provider.url}/metrics`)).text();
}

function value(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels},service="provider-delivery"} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('provider-delivery metrics', () => {
  it('count deliveries created, their status changes and the requests the per-account limit refuses', async () => {
    const before = await scrape();
    const account = await provider.account({ requestsPerMinute: 6 });

    const accepted = await account.call('POST', '/deliveries', createRequest());
    expect(accepted.body.accepted).toBe(true);
    const replay = await account.call('POST', '/deliveries', { ...createRequest(), idempotencyKey: 'once' });
    await account.call('POST', '/deliveries', { ...createRequest(), idempotencyKey: 'once' }); // a replay: not counted
    expect(replay.body.accepted).toBe(true);
    const outside = await account.call(
      'POST',
      '/deliveries',
      createRequest({ dropoffLat: 48.137, dropoffLng: 11.575 }),
    );
    expect(outside.body).toEqual({ accepted: false, rejectionReason: 'outside_service_area' });
    const cancel = await account.call('POST', `/deliveries/${accepted.body.providerDeliveryId}/cancel`, {
      stage: 'before_pickup',
    });
    expect(cancel.body.confirmed).toBe(true);
    // The sixth request of the minute is the last admitted; the seventh is refused.
    expect((await account.call('GET', `/deliveries/${accepted.body.providerDeliveryId}/status`)).status).toBe(200);
    expect((await account.call('GET', `/deliveries/${accepted.body.providerDeliveryId}/status`)).status).toBe(429);

    const after = await scrape();
    const moved = (name: string, labels: string) => value(after, name, labels) - value(before, name, labels);
    expect(moved('provider_deliveries_created_total', 'outcome="accepted"')).toBe(2);
    expect(moved('provider_deliveries_created_total', 'outcome="rejected"')).toBe(1);
    expect(moved('provider_delivery_status_changes_total', 'status="cancelled"')).toBe(1);
    expect(moved('rate_limit_rejections_total', 'scope="account"')).toBe(1);
    expect(after).not.toContain(account.id);
    expect(after).not.toContain(accepted.body.providerDeliveryId);
  });
});
