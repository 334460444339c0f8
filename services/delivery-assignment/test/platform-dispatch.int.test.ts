import { generateKeyPairSync } from 'node:crypto';
import { signCertificate, type Certificate } from 'sdp-conformance';
import { platformAccountSettings, providerAdminToken, waitFor, type ApiClient } from '@marketplace/testing';
import { restaurant, startDeliveryCluster, type DeliveryCluster, type Restaurant } from './support/cluster';

// The marketplace as a platform of the Standard Delivery Provider Contract, against our own
// provider-delivery: a tenant connects it, the administrator enables its capabilities with a
// recorded reason, a Delivery order assigned to the connection's installation is created with
// the provider, the provider's signed callbacks move the assignment (Accepted, InTransit,
// Delivered) and the order completes; an order cancelled by the tenant is cancelled at the
// provider with the right stage.

let cluster: DeliveryCluster;
let r: Restaurant;
let provider: ApiClient;
let accountId: string;
let connection: { connectionId: string; installationId: string };
/** The conformance signer this cluster trusts (CONFORMANCE_TRUSTED_KEYS), and one it does not. */
const trusted = generateKeyPairSync('ed25519');
const untrusted = generateKeyPairSync('ed25519');
const spki = (key: typeof trusted.publicKey) => key.export({ type: 'spki', format: 'der' }).toString('base64');

async function providerCall(method: string, path: string, body?: unknown) {
  const res = await fetch(`${cluster.provider!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${providerAdminToken()}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  cluster = await startDeliveryCluster({
    withProvider: true,
    deliveryEnv: { DISPATCH_QUIET_SECONDS: '2', CONFORMANCE_TRUSTED_KEYS: spki(trusted.publicKey) },
  });
  r = await restaurant(cluster);
  const account = await providerCall('POST', '/admin/v1/platform-accounts', platformAccountSettings('Marketplace'));
  if (account.status !== 201) throw new Error(`account: ${account.status} ${JSON.stringify(account.body)}`);
  accountId = account.body.account.id;
  const key = await providerCall('POST', `/admin/v1/platform-accounts/${accountId}/api-keys`);
  const registered = await r.tenant.call('POST', '/api/tenant/v1/provider-connections', {
    name: 'Demo Fleet',
    baseUrl: `${cluster.provider!.url}/v1`,
    apiKey: key.body.apiKey,
    signingSecret: account.body.webhookSecret,
    contract: { version: '1.1.0', revision: '2026-09-19' },
  });
  if (registered.status !== 201) throw new Error(`connection: ${registered.status} ${JSON.stringify(registered.body)}`);
  connection = registered.body;
  provider = r.tenant;
}, 240_000);

/** A second platform account on provider-delivery whose service area is far from the restaurant: it rejects every delivery. */
async function farConnection(): Promise<{ connectionId: string; installationId: string }> {
  const far = platformAccountSettings('Far Away Fleet');
  far.serviceArea = {
    type: 'Polygon',
    coordinates: [
      [
        [2.3, 48.8],
        [2.4, 48.8],
        [2.4, 48.9],
        [2.3, 48.9],
        [2.3, 48.8],
      ],
    ],
  };
  const account = await providerCall('POST', '/admin/v1/platform-accounts', far);
  const key = await providerCall('POST', `/admin/v1/platform-accounts/${account.body.account.id}/api-keys`);
  const registered = await r.tenant.call('POST', '/api/tenant/v1/provider-connections', {
    name: 'Far Away Fleet',
    baseUrl: `${cluster.provider!.url}/v1`,
    apiKey: key.body.apiKey,
    signingSecret: account.body.webhookSecret,
    contract: { version: '1.1.0', revision: '2026-09-19' },
  });
  expect(registered.status).toBe(201);
  const grantFar = await cluster.gateway.admin.call(
    'POST',
    `/api/admin/v1/provider-connections/${registered.body.connectionId}/capabilities`,
    { capability: 'core', enabled: true, reason: 'a provider that rejects, for the rescue test' },
  );
  expect(grantFar.status).toBe(200);
  return registered.body;
}

afterAll(async () => {
  await cluster?.stop();
}, 60_000);

const grant = (capability: string, enabled = true) =>
  cluster.gateway.admin.call('POST', `/api/admin/v1/provider-connections/${connection.connectionId}/capabilities`, {
    capability,
    enabled,
    reason: 'our own provider-delivery, certified by kits/conformance in CI',
  });

const operatorEvent = (providerDeliveryId: string, body: Record<string, unknown>) =>
  providerCall('POST', `/admin/v1/platform-accounts/${accountId}/deliveries/${providerDeliveryId}/events`, body);

async function dispatchOf(orderId: string) {
  const res = await provider.call('GET', `/api/tenant/v1/deliveries/${orderId}/dispatch`);
  expect(res.status).toBe(200);
  return res.body.dispatches as Array<Record<string, any>>;
}

async function liveOf(orderId: string) {
  return (await r.delivery(orderId)).body.live as Record<string, any> | null;
}

describe('a provider connection', () => {
  it('is registered with its installation, shows no secret, and takes no delivery before its core is enabled', async () => {
    expect(connection).toMatchObject({
      name: 'Demo Fleet',
      offeredBy: 'tenant',
      dispatchable: false,
      contract: { version: '1.1.0', revision: '2026-09-19' },
    });
    expect(JSON.stringify(connection)).not.toMatch(/pdk_|apiKey|signingSecret/);
    const { orderId } = await r.deliveryOrder();
    const refused = await r.assign(orderId, connection.installationId);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('delivery.connection_not_certified');
  });

  it('is enabled capability by capability by an administrator, with the reason recorded', async () => {
    for (const capability of ['core', 'supportsPolling', 'supportsTracking', 'supportsCancellation'])
      expect((await grant(capability)).status).toBe(200);
    const read = await provider.call('GET', `/api/tenant/v1/provider-connections/${connection.connectionId}`);
    expect(read.body.dispatchable).toBe(true);
    expect(read.body.capabilities.core).toMatchObject({ enabled: true, by: 'administrator' });
    expect(read.body.capabilities.core.reason).toMatch(/certified by kits\/conformance/);
    expect(read.body.capabilities.supportsReturnToOrigin.enabled).toBe(false);
  });
});

describe('a conformance certificate', () => {
  const certificate = (baseUrl: string, certified: string[]): Certificate => ({
    kind: 'sdp-conformance-certificate',
    kit: { name: 'sdp-conformance', version: '1.0.0' },
    contract: { version: '1.1.0', revision: '2026-09-19' },
    provider: { baseUrl, name: 'provider-delivery' },
    certified: certified as Certificate['certified'],
    finishedAt: new Date().toISOString(),
    reportSha256: 'a'.repeat(64),
  });
  const submit = (body: unknown, connectionId: string) =>
    r.tenant.call('POST', `/api/tenant/v1/provider-connections/${connectionId}/certifications`, body);

  it('signed by a trusted key enables what it certifies; another signer, another base URL or an edit is refused, enabling nothing', async () => {
    const other = await r.tenant.call('POST', '/api/tenant/v1/provider-connections', {
      name: 'Certified Fleet',
      baseUrl: `${cluster.provider!.url}/v1/`,
      apiKey: 'pdk_not-used.by-this-test',
      signingSecret: 'whsec_not-used-by-this-test',
      contract: { version: '1.1.0', revision: '2026-09-19' },
    });
    expect(other.status).toBe(201);
    const id: string = other.body.connectionId;
    const base = `${cluster.provider!.url}/v1`;

    const byStranger = await submit(signCertificate(certificate(base, ['core']), untrusted.privateKey), id);
    expect({ status: byStranger.status, code: byStranger.body.code }).toEqual({
      status: 422,
      code: 'connection.certificate_untrusted',
    });
    const elsewhere = await submit(
      signCertificate(certificate('https://other.example/v1', ['core']), trusted.privateKey),
      id,
    );
    expect({ status: elsewhere.status, code: elsewhere.body.code }).toEqual({
      status: 422,
      code: 'connection.certificate_mismatch',
    });
    const signed = signCertificate(certificate(base, ['core', 'supportsPolling']), trusted.privateKey);
    const edited = await submit({ ...signed, certified: ['core', 'supportsPolling', 'supportsCancellation'] }, id);
    expect(edited.body.code).toBe('connection.certificate_untrusted');
    expect((await r.tenant.call('GET', `/api/tenant/v1/provider-connections/${id}`)).body.dispatchable).toBe(false);

    const accepted = await submit(signed, id);
    expect(accepted.status).toBe(200);
    expect(accepted.body.dispatchable).toBe(true);
    expect(accepted.body.capabilities.core).toMatchObject({ enabled: true, by: 'certificate' });
    expect(accepted.body.capabilities.supportsPolling.enabled).toBe(true);
    expect(accepted.body.capabilities.supportsCancellation.enabled).toBe(false);
    // Another tenant cannot certify it: the same 404 as for no connection.
    const strangerTenant = await restaurant(cluster);
    const foreign = await strangerTenant.tenant.call(
      'POST',
      `/api/tenant/v1/provider-connections/${id}/certifications`,
      signed,
    );
    expect(foreign.status).toBe(404);
  }, 90_000);
});

describe('a Delivery order dispatched to the connection', () => {
  it('is created with the provider, and the provider’s events move the assignment to Delivered; the order completes', async () => {
    const { orderId } = await r.deliveryOrder();
    const assigned = await r.assign(orderId, connection.installationId);
    expect(assigned.status).toBe(201);

    const accepted = await waitFor(
      'the assignment to be Accepted after the provider accepted the delivery',
      async () => ((await liveOf(orderId))?.statusName === 'Accepted' ? await dispatchOf(orderId) : undefined),
      30_000,
    );
    const [dispatch] = accepted;
    expect(dispatch).toMatchObject({ assignmentId: assigned.body.assignmentId, connectionId: connection.connectionId });
    expect(dispatch!.providerDeliveryId).toEqual(expect.any(String));
    expect(dispatch!.log.map((l: any) => l.decision)).toEqual(expect.arrayContaining(['chosen', 'created']));
    const providerDeliveryId: string = dispatch!.providerDeliveryId;

    // The provider received what the contract says: our assignment id as reference and key, the
    // drop-off and the amount from the order.
    const seen = await providerCall('GET', `/admin/v1/platform-accounts/${accountId}/deliveries/${providerDeliveryId}`);
    expect(seen.body).toMatchObject({ platformReference: assigned.body.assignmentId, callback: 'request' });

    expect(
      (
        await operatorEvent(providerDeliveryId, {
          eventType: 'driver.assigned',
          driverName: 'Kim Driver',
          driverPhone: '+49 170 5550101',
        })
      ).status,
    ).toBe(200);
    await waitFor(
      'the driver on the assignment',
      async () => (await liveOf(orderId))?.driverName === 'Kim Driver',
      30_000,
    );
    expect((await operatorEvent(providerDeliveryId, { eventType: 'delivery.picked_up' })).status).toBe(200);
    await waitFor('InTransit', async () => (await liveOf(orderId))?.statusName === 'InTransit', 30_000);
    expect((await operatorEvent(providerDeliveryId, { eventType: 'delivery.delivered' })).status).toBe(200);
    await waitFor('Delivered', async () => (await liveOf(orderId))?.statusName === 'Delivered', 30_000);
    await waitFor(
      'the order Completed',
      async () => (await r.tenant.call('GET', `/api/tenant/v1/orders/${orderId}`)).body.statusName === 'Completed',
      30_000,
    );
    const final = (await dispatchOf(orderId))[0]!;
    expect(final.providerStatus).toBe('delivered');
    expect(final.stateAgeSeconds).toEqual(expect.any(Number));
    const score = await provider.call(
      'GET',
      `/api/tenant/v1/provider-connections/${connection.connectionId}/scorecard`,
    );
    expect(score.body).toMatchObject({
      dispatched: 1,
      accepted: 1,
      acceptanceRate: 1,
      driverAssigned: 1,
      delivered: 1,
    });
    expect(score.body.meanSecondsToDriver).toEqual(expect.any(Number));
    expect(score.body.signatureFailures).toBe(0);
    // The provider's signed callbacks count too. They come through a webhook-sender whose attempt
    // consumer starts at the beginning of topics a long-lived stack has filled (tens of seconds to
    // read past), so the states above may have come by polling first.
    const heard = await waitFor(
      'the provider callbacks counted on the scorecard',
      async () => {
        const read = await provider.call(
          'GET',
          `/api/tenant/v1/provider-connections/${connection.connectionId}/scorecard`,
        );
        return read.body.callbacks >= 1 ? read.body : undefined;
      },
      150_000,
      500,
    );
    expect(heard.meanCallbackLagSeconds).toEqual(expect.any(Number));
  }, 300_000);

  it('is cancelled at the provider, before pickup, when the tenant cancels the order', async () => {
    const { orderId } = await r.deliveryOrder();
    expect((await r.assign(orderId, connection.installationId)).status).toBe(201);
    const providerDeliveryId = await waitFor(
      'the provider delivery',
      async () => ((await dispatchOf(orderId))[0]?.providerDeliveryId as string | null) ?? undefined,
      30_000,
    );
    expect((await r.tenant.call('POST', `/api/tenant/v1/orders/${orderId}/cancel`)).status).toBe(200);
    const cancelled = await waitFor(
      'the provider delivery cancelled',
      async () => {
        const read = await providerCall(
          'GET',
          `/admin/v1/platform-accounts/${accountId}/deliveries/${providerDeliveryId}`,
        );
        return read.body.status === 'cancelled' ? read.body : undefined;
      },
      30_000,
    );
    expect(cancelled.status).toBe('cancelled');
    const [dispatch] = await dispatchOf(orderId);
    const log = dispatch!.log as Array<{ decision: string; reason: string }>;
    expect(log.find((l) => l.decision === 'cancel_sent')?.reason).toMatch(/before_pickup: confirmed/);
    await waitFor(
      'the provider’s cancelled event',
      async () => (await dispatchOf(orderId))[0]?.providerStatus === 'cancelled',
    );
  }, 90_000);
  it("is rescued by the tenant's rules: the first connection rejects it, the next one delivers it; the log says why", async () => {
    const far = await farConnection();
    const rules = await r.tenant.call('PUT', '/api/tenant/v1/dispatch-rules', {
      connections: [far.installationId, connection.installationId],
      rescue: { enabled: true, withinMinutes: 30 },
    });
    expect(rules.status).toBe(200);
    const { orderId } = await r.deliveryOrder();
    const dispatched = await r.tenant.call('POST', `/api/tenant/v1/deliveries/${orderId}/dispatch`);
    expect(dispatched.status).toBe(201);
    expect(dispatched.body.appInstallationId).toBe(far.installationId);

    const live = await waitFor(
      'the rescue to the second connection, Accepted',
      async () => {
        const now = await liveOf(orderId);
        return now?.appInstallationId === connection.installationId && now.statusName === 'Accepted' ? now : undefined;
      },
      30_000,
    );
    expect(live.statusName).toBe('Accepted');
    const view = (await r.tenant.call('GET', `/api/tenant/v1/deliveries/${orderId}/dispatch`)).body;
    expect(view.plan.tried).toEqual([far.installationId, connection.installationId]);
    expect(view.plan.log.map((l: { decision: string }) => l.decision)).toEqual(['chosen', 'rescued']);
    expect(view.dispatches).toHaveLength(2);
    expect(view.dispatches[0].log.map((l: { decision: string }) => l.decision)).toEqual([
      'chosen',
      'rejected',
      'ended',
    ]);
    const history = (await r.delivery(orderId)).body.history;
    expect(history.map((a: { statusName: string }) => a.statusName)).toEqual(['Rejected']);

    const providerDeliveryId: string = view.dispatches[1].providerDeliveryId;
    expect(
      (await operatorEvent(providerDeliveryId, { eventType: 'driver.assigned', driverName: 'Rescue Rider' })).status,
    ).toBe(200);
    expect((await operatorEvent(providerDeliveryId, { eventType: 'delivery.picked_up' })).status).toBe(200);
    expect((await operatorEvent(providerDeliveryId, { eventType: 'delivery.delivered' })).status).toBe(200);
    await waitFor(
      'Delivered by the second connection',
      async () => (await liveOf(orderId))?.statusName === 'Delivered',
      30_000,
    );
  }, 120_000);

  it('is refused by the rules when no connection of them can take it (422), and without rules (422)', async () => {
    const stranger = await r.tenant.call('PUT', '/api/tenant/v1/dispatch-rules', {
      connections: ['00000000-0000-4000-8000-000000000000'],
      rescue: { enabled: false, withinMinutes: 5 },
    });
    expect(stranger.status).toBe(400);
    expect((await grant('core', false)).status).toBe(200);
    try {
      const only = await r.tenant.call('PUT', '/api/tenant/v1/dispatch-rules', {
        connections: [connection.installationId],
        rescue: { enabled: false, withinMinutes: 5 },
      });
      expect(only.status).toBe(200);
      const { orderId } = await r.deliveryOrder();
      const refused = await r.tenant.call('POST', `/api/tenant/v1/deliveries/${orderId}/dispatch`);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('dispatch.no_connection_available');
    } finally {
      expect((await grant('core', true)).status).toBe(200);
    }
  });
});
