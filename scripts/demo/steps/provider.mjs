// Seed step: the demo platform account of provider-delivery, our own delivery provider, through its
// administrator API: the side of the Standard Delivery Provider Contract where a platform hands us
// deliveries. The account "Demo Platform" has every capability but proof of delivery (false in
// contract 1.1.0), a service area around "Demo Bistro Mitte" (a square of ±0.03°, about 6.7 km
// north to south, holding the demo delivery zone; the zone's `outside` point lies outside it too),
// the default rate limit, the seed's --webhook-url as its global webhook URL (its deliveries'
// callbacks go there), and the courier simulator on (its deliveries deliver themselves).
// Idempotent: an account of that name is found again (the oldest, if several)
// and set to the same values, its webhook secret rotated (a secret is shown only when minted) and a
// fresh API key minted with the others expiring at once (the previous key stops working, as the
// installations' do). Adds `provider` to the fixture: the platform API's base URL, the API key,
// the webhook secret and the account id.

const ACCOUNTS = '/admin/v1/platform-accounts';
export const DEMO_PLATFORM_ACCOUNT = 'Demo Platform';
const CAPABILITIES = {
  supportsPolling: true,
  supportsReturnToOrigin: true,
  supportsProofOfDelivery: false,
  supportsScheduledDelivery: true,
  supportsUpdates: true,
  supportsCancellation: true,
};
/** Half the side of the service area's square, in degrees. */
const AREA_HALF_SIDE = 0.03;
/**
 * The courier simulator (provider-delivery runs it where SIMULATOR_ENABLED is set, as `npm start`
 * does): five simulated drivers in the area take the demo platform's deliveries, on a clock 30
 * times faster than real time, so a person can watch one arrive on its tracking page in about a
 * minute (15 minutes of preparation are 30 seconds).
 */
const SIMULATOR = { enabled: true, drivers: 5, timeScale: 30 };
/**
 * The event types the demo platform receives: the spec's table and, opted in, provider-delivery's
 * own (arrival at pickup, on the way, the return's), so the demo's callbacks show every move (an
 * account receives only the spec's table unless it opts in).
 */
const EVENT_TYPES = [
  'delivery.accepted',
  'driver.assigned',
  'driver.location_updated',
  'eta.updated',
  'tracking.updated',
  'delivery.picked_up',
  'delivery.delivered',
  'delivery.cancelled',
  'delivery.failed',
  'driver.arrived_at_pickup',
  'delivery.on_the_way',
  'delivery.return_requested',
  'delivery.returning_to_origin',
  'delivery.returned_to_origin',
  'delivery.return_failed',
];

/** A GeoJSON Polygon ([lng, lat] positions, closed ring): a square of ±d degrees around a point. */
function squareAround({ latitude, longitude }, d) {
  const ring = [
    [longitude - d, latitude - d],
    [longitude + d, latitude - d],
    [longitude + d, latitude + d],
    [longitude - d, latitude + d],
    [longitude - d, latitude - d],
  ];
  return { type: 'Polygon', coordinates: [ring.map(([x, y]) => [Number(x.toFixed(6)), Number(y.toFixed(6))])] };
}

export const providerStep = {
  name: 'provider',
  async run(ctx) {
    const zone = ctx.fixture.deliveryZones?.[0];
    if (!zone) throw new Error('the ordering step must run before the provider step');
    const admin = ctx.provider;
    const settings = {
      webhookUrl: ctx.webhookUrl ?? null,
      capabilities: CAPABILITIES,
      // The zone's `inside` point is the branch itself.
      serviceArea: squareAround(zone.inside, AREA_HALF_SIDE),
      simulator: SIMULATOR,
      eventTypes: EVENT_TYPES,
    };
    const accounts = await admin.call('GET', ACCOUNTS, undefined, [200]);
    const found = accounts.find((a) => a.name === DEMO_PLATFORM_ACCOUNT);
    let account;
    let webhookSecret;
    let apiKey;
    if (found) {
      account = await admin.call('PATCH', `${ACCOUNTS}/${found.id}`, settings, [200]);
      ({ webhookSecret } = await admin.call('POST', `${ACCOUNTS}/${found.id}/webhook-secret/rotate`, undefined, [200]));
      ({ apiKey } = await admin.call('POST', `${ACCOUNTS}/${found.id}/api-keys/rotate`, { overlapSeconds: 0 }, [201]));
    } else {
      ({ account, webhookSecret } = await admin.call(
        'POST',
        ACCOUNTS,
        { name: DEMO_PLATFORM_ACCOUNT, ...settings },
        [201],
      ));
      ({ apiKey } = await admin.call('POST', `${ACCOUNTS}/${account.id}/api-keys`, undefined, [201]));
    }
    ctx.report(
      `provider: platform account "${DEMO_PLATFORM_ACCOUNT}" ${account.id} (${found ? 'updated, webhook secret rotated' : 'created'}), ` +
        `key id ${apiKey.split('.')[0]}, service area ±${AREA_HALF_SIDE}° around Demo Bistro Mitte, ` +
        `${SIMULATOR.drivers} simulated drivers on a clock ${SIMULATOR.timeScale} times faster`,
    );
    return {
      provider: { baseUrl: `${ctx.providerUrl}/v1`, apiKey, webhookSecret, accountId: account.id },
      // The same area serves the marketplace's own account (the provider connection step).
      providerServiceArea: settings.serviceArea,
    };
  },
};
