import { generateKeyPairSync } from 'node:crypto';
import { IDENTITY_HEADER, privateKeyFrom, signIdentity, type PartnerIdentity } from '@marketplace/identity';
import {
  connectedApp,
  freePort,
  localEnv,
  partnerCall,
  startGateway,
  startServiceProcess,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';

// A real internal service (catalog) behind the real gateway: only identities the gateway signed
// for this very request get past the guard; anything reaching the internal port directly is 401.
let catalog: ServiceProcess;
let gw: TestGateway;

beforeAll(async () => {
  catalog = await startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: 'it_identity_catalog' });
  gw = await startGateway({ CATALOG_URL: catalog.url, RATE_LIMIT_PER_IP: '100000' });
}, 90_000);

afterAll(async () => {
  await gw?.stop();
  await catalog?.stop();
});

const identity: PartnerIdentity = {
  kind: 'partner',
  tenantId: 't',
  tenant: { currencyCode: 'EUR', defaultLanguage: 'en' },
  installationId: 'i',
  appId: 'a',
  scopes: ['Catalog.Read'],
};
const branches = '/api/partner/v1/catalog/branches';
const direct = (headers: Record<string, string> = {}) => fetch(catalog.url + branches, { headers });

it('lets a request through the gateway reach the service (a new tenant has no branches)', async () => {
  const app = await connectedApp(gw, ['Catalog.Read']);
  const res = await partnerCall(gw, app.apiKey, 'GET', '/catalog/branches');
  expect(res.status).toBe(200);
  expect(res.body).toEqual([]);
});

it('refuses direct calls without, with a forged, or with a replayed identity', async () => {
  const ownKey = privateKeyFrom(localEnv().INTERNAL_IDENTITY_PRIVATE_KEY!);
  const otherKey = privateKeyFrom(
    generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  );
  const cases: [string, Record<string, string>][] = [
    ['none', {}],
    ['garbage', { [IDENTITY_HEADER]: 'v1.abc.def' }],
    [
      'signed by another key',
      { [IDENTITY_HEADER]: signIdentity(otherKey, identity, { method: 'GET', path: branches, service: 'catalog' }) },
    ],
    [
      'issued for another path',
      {
        [IDENTITY_HEADER]: signIdentity(ownKey, identity, { method: 'GET', path: `${branches}/x`, service: 'catalog' }),
      },
    ],
    [
      'issued for another service',
      {
        [IDENTITY_HEADER]: signIdentity(ownKey, identity, {
          method: 'GET',
          path: branches,
          service: 'ordering-pricing',
        }),
      },
    ],
    [
      'issued for another spelling of the path',
      {
        [IDENTITY_HEADER]: signIdentity(ownKey, identity, {
          method: 'GET',
          path: branches.toUpperCase(),
          service: 'catalog',
        }),
      },
    ],
    [
      'expired',
      {
        [IDENTITY_HEADER]: signIdentity(
          ownKey,
          identity,
          { method: 'GET', path: branches, service: 'catalog' },
          Date.now() - 120_000,
        ),
      },
    ],
  ];
  for (const [what, headers] of cases) {
    const res = await direct(headers);
    expect({ what, status: res.status }).toEqual({ what, status: 401 });
  }
  // The same service answers a correctly signed request.
  expect(
    (
      await direct({
        [IDENTITY_HEADER]: signIdentity(ownKey, identity, { method: 'GET', path: branches, service: 'catalog' }),
      })
    ).status,
  ).toBe(200);
  // Tenant routes need a tenant identity: a partner identity does not open them.
  const tenantPath = '/api/tenant/v1/catalog/products';
  const res = await fetch(catalog.url + tenantPath, {
    headers: {
      [IDENTITY_HEADER]: signIdentity(ownKey, identity, { method: 'GET', path: tenantPath, service: 'catalog' }),
    },
  });
  expect(res.status).toBe(401);
});
