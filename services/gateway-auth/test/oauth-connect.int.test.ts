import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import {
  createTenant,
  partnerCall,
  stackEnv,
  startGateway,
  type ApiClient,
  type TestGateway,
} from '@marketplace/testing';
import { followAuthorization, startOAuthServer, type TestOAuthServer } from './support/oauth-server';
import { TestUpstream } from './support/upstream';

// OAuth2 connect end to end: the gateway is the OAuth client, a real authorization server
// (oidc-provider, in its own process) plays the partner, and this test plays the browser.
const CLIENT_ID = 'marketplace-client';
const CLIENT_SECRET = 'partner-issued-client-secret-0123456789';

let gw: TestGateway;
let upstream: TestUpstream;
let authServer: TestOAuthServer;
let brokenTokenEndpoint: Server;
let owner: { tenantId: string; tenant: ApiClient };

async function oauthApp(tokenEndpoint = authServer.tokenEndpoint) {
  const slug = `oauth-${Math.random().toString(36).slice(2, 10)}`;
  const app = await gw.admin.call('POST', '/api/admin/v1/apps', { slug, name: 'OAuth Partner' });
  const version = await gw.admin.call('POST', `/api/admin/v1/apps/${app.body.id}/versions`, {
    authType: 'OAuth2',
    scopes: ['Catalog.Read', 'Orders.Create'],
    subscribedEvents: ['orders.cancelled'],
    webhookUrl: 'https://partner.example.com/hooks',
    oauth2: {
      authorizationEndpoint: authServer.authorizationEndpoint,
      tokenEndpoint,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      scopes: ['openid', 'orders:write'],
    },
  });
  expect(version.status).toBe(201);
  await gw.admin.call('POST', `/api/admin/v1/apps/${app.body.id}/versions/${version.body.version}/publish`);
  const installed = await owner.tenant.call('POST', '/api/tenant/v1/installations', {
    appId: app.body.id,
    contractVersion: version.body.version,
  });
  expect(installed.status).toBe(201);
  return installed.body.id as string;
}

/** The browser arriving at the gateway's callback. */
const callback = async (url: string) => {
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
};

beforeAll(async () => {
  upstream = await new TestUpstream().start();
  gw = await startGateway({ CATALOG_URL: upstream.url, OAUTH_TIMEOUT_MS: '2000' });
  authServer = await startOAuthServer({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${gw.url}/api/marketplace/oauth/callback`,
  });
  brokenTokenEndpoint = createServer((_req, res) =>
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"server_error"}'),
  );
  await new Promise<void>((resolve) => brokenTokenEndpoint.listen(0, '127.0.0.1', resolve));
  owner = await createTenant(gw);
}, 60_000);

afterAll(async () => {
  await authServer?.stop();
  await gw?.stop();
  await upstream?.stop();
  await new Promise((resolve) => brokenTokenEndpoint?.close(resolve));
});

describe('OAuth2 connect', () => {
  it('redirects with state and PKCE, exchanges the code, stores the tokens sealed and issues an API key', async () => {
    const installationId = await oauthApp();
    const connect = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installationId}/connect`);
    expect(connect.status).toBe(200);
    expect(connect.body).toMatchObject({ credentials: null, installation: { status: 'Connecting' } });
    const authorize = new URL(connect.body.authorizationUrl);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(authServer.authorizationEndpoint);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${gw.url}/api/marketplace/oauth/callback`,
      code_challenge_method: 'S256',
      scope: 'openid orders:write',
    });
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const done = await callback(await followAuthorization(connect.body.authorizationUrl));
    expect(done.status).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.body.installation).toMatchObject({
      id: installationId,
      status: 'Connected',
      oauthConnected: true,
      scopes: ['Catalog.Read', 'Orders.Create'],
    });
    expect(done.body.credentials.apiKey).toMatch(/^mpk_/);
    expect(done.body.credentials.webhookSigningSecret).toMatch(/^whsec_/);
    expect((await partnerCall(gw, done.body.credentials.apiKey, 'GET', '/catalog/branches')).status).toBe(200);

    // Tokens and client secret are in the database only sealed.
    const client = await MongoClient.connect(stackEnv().MONGO_URL);
    try {
      const db = client.db(gw.database);
      const installation = await db.collection('installations').findOne({ _id: installationId as never });
      expect(installation!.oauth.accessTokenSealed).toMatch(/^v1\./);
      expect(installation!.oauth.refreshTokenSealed).toMatch(/^v1\./);
      const dump = JSON.stringify(
        await Promise.all((await db.listCollections().toArray()).map((c) => db.collection(c.name).find().toArray())),
      );
      expect(dump).not.toContain(CLIENT_SECRET);
      expect(dump).not.toContain(done.body.credentials.apiKey.split('.')[1]);
      expect(dump).not.toContain(done.body.credentials.webhookSigningSecret);
    } finally {
      await client.close();
    }
  });

  it('works once per state: a replayed or unknown state is refused', async () => {
    const installationId = await oauthApp();
    const connect = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installationId}/connect`);
    const back = await followAuthorization(connect.body.authorizationUrl);
    expect((await callback(back)).status).toBe(200);
    const replayed = await callback(back);
    expect(replayed.body).toMatchObject({ status: 400, code: 'oauth.state_invalid' });
    const forged = new URL(back);
    forged.searchParams.set('state', 'A'.repeat(43));
    expect((await callback(forged.toString())).body).toMatchObject({ status: 400, code: 'oauth.state_invalid' });
    const missing = new URL(back);
    missing.searchParams.delete('state');
    expect((await callback(missing.toString())).body).toMatchObject({ status: 400, code: 'oauth.state_invalid' });
  });

  it('reports a denied consent and leaves the installation unconnected', async () => {
    const installationId = await oauthApp();
    const connect = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installationId}/connect`);
    const denied = await callback(await followAuthorization(connect.body.authorizationUrl, { deny: true }));
    expect(denied.body).toMatchObject({ status: 400, code: 'oauth.authorization_denied' });
    expect(denied.body.detail).toContain('access_denied');
    const after = await owner.tenant.call('GET', `/api/tenant/v1/installations/${installationId}`);
    expect(after.body).toMatchObject({ status: 'Installed', apiKeyId: null, oauthConnected: false });
  });

  it('reports a failing token endpoint as 502 without leaking the client secret', async () => {
    const port = (brokenTokenEndpoint.address() as AddressInfo).port;
    const installationId = await oauthApp(`http://127.0.0.1:${port}/token`);
    const connect = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installationId}/connect`);
    const failed = await callback(await followAuthorization(connect.body.authorizationUrl));
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'oauth.token_exchange_failed' });
    expect(JSON.stringify(failed.body)).not.toContain(CLIENT_SECRET);
    const after = await owner.tenant.call('GET', `/api/tenant/v1/installations/${installationId}`);
    expect(after.body).toMatchObject({ status: 'Installed', apiKeyId: null });
  });

  it('reconnect keeps the old key working until the callback, then revokes it', async () => {
    const installationId = await oauthApp();
    const first = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installationId}/connect`);
    const firstKey = (await callback(await followAuthorization(first.body.authorizationUrl))).body.credentials.apiKey;
    const again = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installationId}/reconnect`);
    expect(again.body.installation.status).toBe('Connected');
    expect((await partnerCall(gw, firstKey, 'GET', '/catalog/branches')).status).toBe(200);
    const secondKey = (await callback(await followAuthorization(again.body.authorizationUrl))).body.credentials.apiKey;
    expect((await partnerCall(gw, firstKey, 'GET', '/catalog/branches')).status).toBe(401);
    expect((await partnerCall(gw, secondKey, 'GET', '/catalog/branches')).status).toBe(200);
  });

  it('keeps codes, states and secrets out of the gateway log', () => {
    const log = gw.process.output();
    expect(log).toContain('/api/marketplace/oauth/callback');
    expect(log).not.toContain(CLIENT_SECRET);
    expect(log).not.toMatch(/code=|state=|mpk_[A-Za-z0-9_-]{22}\./);
  });
});
