// Seed step: the marketplace as a platform of the Standard Delivery Provider Contract. Our own
// provider-delivery gets a platform account for the marketplace ("Marketplace Dispatch": every
// capability but proof of delivery, no global webhook URL, since the marketplace names a callback
// per delivery, and the courier simulator on, so its deliveries deliver themselves), and the
// tenant connects it as "Demo Fleet" through the tenant API. An administrator then enables the
// connection's capabilities with a recorded reason: our provider is certified by the conformance
// kit in CI (kits/conformance/test/provider-delivery.int.test.ts); a certificate signed by a key
// the deployment trusts does the same through `POST …/certifications`.
// Idempotent: the account and the connection are found again by name, the account's secret and
// key rotated and the connection given the new ones. Adds `providerConnection` to the fixture:
// the connection id and the installation id the tenant assigns deliveries to.

const ACCOUNTS = '/admin/v1/platform-accounts';
const CONNECTIONS = '/api/tenant/v1/provider-connections';
export const MARKETPLACE_ACCOUNT = 'Marketplace Dispatch';
export const DEMO_FLEET = 'Demo Fleet';
const CAPABILITIES = {
  supportsPolling: true,
  supportsReturnToOrigin: true,
  supportsProofOfDelivery: false,
  supportsScheduledDelivery: true,
  supportsUpdates: true,
  supportsCancellation: true,
};
/** What the marketplace enables on the connection: the core and what it uses of the contract. */
const ENABLED = ['core', 'supportsPolling', 'supportsTracking', 'supportsCancellation', 'supportsWebhooks'];
const REASON = 'our own provider-delivery, certified against contract 1.1.0 by sdp-conformance in CI';
/** Simulated couriers on a clock 30 times faster than real time, as the demo platform's. */
const SIMULATOR = { enabled: true, drivers: 5, timeScale: 30 };

async function marketplaceAccount(ctx, serviceArea) {
  const admin = ctx.provider;
  const settings = { webhookUrl: null, capabilities: CAPABILITIES, serviceArea, simulator: SIMULATOR };
  const accounts = await admin.call('GET', ACCOUNTS, undefined, [200]);
  const found = accounts.find((a) => a.name === MARKETPLACE_ACCOUNT);
  if (!found) {
    const { account, webhookSecret } = await admin.call(
      'POST',
      ACCOUNTS,
      { name: MARKETPLACE_ACCOUNT, ...settings },
      [201],
    );
    const { apiKey } = await admin.call('POST', `${ACCOUNTS}/${account.id}/api-keys`, undefined, [201]);
    return { account, webhookSecret, apiKey, created: true };
  }
  const account = await admin.call('PATCH', `${ACCOUNTS}/${found.id}`, settings, [200]);
  const { webhookSecret } = await admin.call('POST', `${ACCOUNTS}/${found.id}/webhook-secret/rotate`, undefined, [200]);
  const { apiKey } = await admin.call('POST', `${ACCOUNTS}/${found.id}/api-keys/rotate`, { overlapSeconds: 0 }, [201]);
  return { account, webhookSecret, apiKey, created: false };
}

export const providerConnectionStep = {
  name: 'provider connection',
  async run(ctx) {
    const zone = ctx.fixture.deliveryZones?.[0];
    if (!zone) throw new Error('the ordering step must run before the provider connection step');
    const serviceArea = ctx.fixture.providerServiceArea;
    const { account, webhookSecret, apiKey } = await marketplaceAccount(ctx, serviceArea);
    const credentials = { apiKey, signingSecret: webhookSecret };
    const existing = (await ctx.tenant.call('GET', CONNECTIONS, undefined, [200])).find(
      (c) => c.name === DEMO_FLEET && c.offeredBy === 'tenant',
    );
    const connection = existing
      ? await ctx.tenant.call('PUT', `${CONNECTIONS}/${existing.connectionId}/credentials`, credentials, [200])
      : await ctx.tenant.call(
          'POST',
          CONNECTIONS,
          {
            name: DEMO_FLEET,
            baseUrl: `${ctx.providerUrl}/v1`,
            ...credentials,
            contract: { version: '1.1.0', revision: '2026-09-19' },
          },
          [201],
        );
    for (const capability of ENABLED)
      await ctx.admin.call(
        'POST',
        `/api/admin/v1/provider-connections/${connection.connectionId}/capabilities`,
        { capability, enabled: true, reason: REASON },
        [200],
      );
    ctx.report(
      `provider connection: "${DEMO_FLEET}" ${connection.connectionId} (${existing ? 'credentials replaced' : 'created'}), ` +
        `installation ${connection.installationId}, on provider-delivery's account "${MARKETPLACE_ACCOUNT}" ${account.id} ` +
        `(${SIMULATOR.drivers} simulated drivers); enabled: ${ENABLED.join(', ')}`,
    );
    return {
      providerConnection: {
        connectionId: connection.connectionId,
        installationId: connection.installationId,
        accountId: account.id,
      },
    };
  },
};
