import { createHash, randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { OUTBOX, OutboxRelay } from '@marketplace/outbox';
import { ensureIndexes } from '@marketplace/store';
import {
  describeTimings,
  fillTo,
  growsWithData,
  methodOfCase,
  queryMethodsOf,
  stackEnv,
  timeLookups,
  uniqueName,
  type LookupCase,
} from '@marketplace/testing';
import type {
  ApiKeyDoc,
  AppDoc,
  AuditEventDoc,
  ContractVersionDoc,
  IdempotencyRecordDoc,
  InstallationDoc,
  OAuthStateDoc,
  TenantDoc,
  TenantTokenDoc,
} from '../src/adapters/store/documents';
import { auditEventId } from '../src/domain/audit';
import { contractVersionId } from '../src/domain/ids';
import { gatewayIndexes, gatewayRepositories } from '../src/adapters/store/repositories';

// Every repository query of the gateway, on the real engine, with its collections at 1,000 and
// then 20,000 documents of other tenants, apps and installations: a query served by an index costs
// about the same at both sizes; a scan grows with the data and fails the test. Each case checks
// its answer, so that it is a real query; a repository method without a case fails too.

jest.setTimeout(240_000);

/**
 * Repository methods left out of the timing, because they read the whole collection on the local
 * engine by nature: the administrators' lists of every tenant and every app (capped at 1,000,
 * oldest first). The local engine sorts and limits after reading every candidate, so no index
 * can make "the first 1,000 of all" cheaper there; on MongoDB 7 the `created` index serves the
 * sort and the limit. Apps are a few hundred at most; tenants are more, but this list is an
 * administrator's occasional page, never on a request path. Their answers are still checked below.
 */
const NOT_TIMED = ['TenantsRepository.listAllAcrossTenants', 'AppsRepository.listAll'];
// The administrators' audit log of every tenant (no `before`) is the same kind of list: checked below.

const TENANT = 'tenant-under-test';
const OTHER_TENANT = 'tenant-next-door';
const INSTALLATION = 'installation-under-test';
const OWNER = { tenantId: TENANT, installationId: INSTALLATION };
const APP = 'app-under-test';
const OTHER_APP = 'app-second';
const KEY_HASH = 'key-hash-under-test';

let client: MongoClient;
let db: Db;

beforeAll(async () => {
  client = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  db = client.db(uniqueName('it_gateway_repos').replace(/-/g, '_'));
  // The service's indexes, and the outbox relay's on the installations (which the runtime adds).
  await ensureIndexes(db, gatewayIndexes);
  await ensureIndexes(db, OutboxRelay.indexes(['installations']));
});

afterAll(async () => {
  await db?.dropDatabase();
  await client?.close();
});

const NOW = new Date();
const later = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000);
const day = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000);
const sealed = () => `v1.${Buffer.from(randomUUID() + randomUUID() + randomUUID()).toString('base64')}`;
const sha = (value: string) => createHash('sha256').update(value).digest('base64url');

const tenant = (id: string, n: number): TenantDoc => ({
  _id: id,
  slug: id,
  name: `Trattoria ${id} — Holzofenpizza & Pasta, Filiale ${n}`,
  currencyCode: 'EUR',
  defaultLanguage: 'de',
  createdAt: day(n),
});

/** An app (about 0.5 KB). */
const app = (id: string, n: number): AppDoc => ({
  _id: id,
  slug: id,
  name: `Partner app ${id}`,
  description: `Connects the restaurant's orders, menu and deliveries with ${id}: orders arrive on the kitchen display, the menu is kept in step both ways, and drivers are dispatched as soon as an order is accepted. Set up in minutes, no hardware needed.`,
  createdAt: day(n),
});

/** A contract version (about 0.8 KB with its OAuth settings). */
function version(
  appId: string,
  n: number,
  status: ContractVersionDoc['status'],
  createdAt = day(n),
): ContractVersionDoc {
  return {
    _id: contractVersionId(appId, n),
    appId,
    version: n,
    status,
    authType: 'OAuth2',
    scopes: ['Orders.Read', 'Orders.Create', 'Catalog.Read', 'Catalog.Write', 'Delivery.Read'],
    subscribedEvents: [
      'order.created',
      'order.accepted',
      'order.rejected',
      'order.cancelled',
      'delivery.status_changed',
    ],
    webhookUrl: `https://${appId}.partner.example.com/webhooks/marketplace`,
    oauth2: {
      authorizationEndpoint: `https://auth.${appId}.partner.example.com/oauth2/authorize`,
      tokenEndpoint: `https://auth.${appId}.partner.example.com/oauth2/token`,
      clientId: `client-${appId}`,
      clientSecretSealed: sealed(),
      scopes: ['openid', 'orders', 'menu'],
      tokenEndpointAuthMethod: 'client_secret_basic',
    },
    createdAt,
    updatedAt: createdAt,
    publishedAt: status === 'Published' ? createdAt : null,
  };
}

/** An installation (about 0.9 KB). */
function installation(
  id: string,
  tenantId: string,
  appId: string,
  n: number,
  status: InstallationDoc['status'] = 'Connected',
): InstallationDoc {
  return {
    _id: id,
    tenantId,
    appId,
    appName: `Partner app ${appId}`,
    contractVersion: 1,
    authType: 'ApiKey',
    contractScopes: ['Orders.Read', 'Orders.Create', 'Catalog.Read', 'Catalog.Write', 'Delivery.Read'],
    subscribedEvents: [
      'order.created',
      'order.accepted',
      'order.rejected',
      'order.cancelled',
      'delivery.status_changed',
    ],
    webhookUrl: `https://${appId}.partner.example.com/webhooks/marketplace`,
    status,
    slot: status === 'Uninstalled' ? id : 'live',
    scopes: ['Orders.Read', 'Orders.Create', 'Catalog.Read', 'Catalog.Write', 'Delivery.Read'],
    apiKeyId: `key-${id}`,
    webhookSecretSealed: sealed(),
    oauth: null,
    installedAt: day(n),
    connectedAt: day(n),
    updatedAt: day(n),
    eventRevision: 1,
  };
}
const { _id: _i, tenantId: _t, ...installationFields } = installation('x', 'x', 'x', 0);

const apiKey = (
  id: string,
  tenantId: string,
  installationId: string,
  status: ApiKeyDoc['status'],
  n: number,
): ApiKeyDoc => ({
  _id: id,
  installationId,
  tenantId,
  appId: `app-of-${installationId}`,
  secretHash: sha(id),
  scopes: ['Orders.Read', 'Orders.Create', 'Catalog.Read', 'Catalog.Write', 'Delivery.Read'],
  status,
  createdAt: day(n),
  revokedAt: status === 'revoked' ? day(n + 1) : null,
});
const keyFields = (id: string) => {
  const { tenantId: _a, installationId: _b, ...fields } = apiKey(id, 'x', 'x', 'active', 0);
  return fields;
};

const stateFields = (id: string, expiresAt: Date) => ({
  _id: id,
  codeVerifierSealed: sealed(),
  createdAt: NOW,
  expiresAt,
});

/** A stored Partner API response (about 0.8 KB, mostly the order the owner answered with). */
const recordFields = (expiresAt: Date) => ({
  fingerprint: sha(randomUUID()),
  status: 201,
  headers: { 'content-type': 'application/json; charset=utf-8', location: `/api/partner/v1/orders/${randomUUID()}` },
  body: JSON.stringify({
    id: randomUUID(),
    status: 'Created',
    total: { amount: 4250, currency: 'EUR' },
    lines: [
      { itemId: randomUUID(), name: 'Margherita', quantity: 2, unitPrice: 1100 },
      { itemId: randomUUID(), name: 'Tiramisu', quantity: 1, unitPrice: 650 },
    ],
    customer: { name: 'A. Customer', phone: '+49 30 1234567' },
    notes: 'Ring twice, third floor on the left.',
  }),
  createdAt: NOW,
  expiresAt,
});

const installationEvent = (installationId: string): OutgoingEvent => ({
  topic: 'installations',
  key: installationId,
  type: 'installation.changed',
  data: {
    installationId,
    tenantId: 'tenant-events',
    appId: 'app-events',
    contractVersion: 1,
    status: 'Disconnected',
    connected: false,
    webhookUrl: null,
    subscribedEvents: [],
    scopes: ['Orders.Read'],
    webhookSecretSealed: null,
    revision: 2,
    changedAt: NOW.toISOString(),
  },
});

/** A minted tenant token's record (about 0.2 KB). */
const tenantToken = (id: string, createdAt: Date, expiresAt: Date): Omit<TenantTokenDoc, 'tenantId'> => ({
  _id: id,
  issuedBy: 'admin:ops@example.com',
  createdAt,
  expiresAt,
  revokedAt: null,
  revokedBy: null,
});

/** An audit event (about 0.5 KB) of a tenant at `atMs`. */
const auditEvent = (tenantId: string, atMs: number): AuditEventDoc => ({
  _id: auditEventId(atMs),
  at: new Date(atMs),
  tenantId,
  actor: { role: 'tenant', sub: `tenant:${tenantId}`, tenantId, tokenId: randomUUID() },
  action: 'POST /api/tenant/v1/installations/:installationId/api-key/rotate',
  method: 'POST',
  route: '/api/tenant/v1/installations/:installationId/api-key/rotate',
  target: { installationId: randomUUID() },
  status: 200,
  ip: '203.0.113.7',
  requestId: randomUUID(),
});

/** The page below an event. */
const pageAt = (event: AuditEventDoc) => ({ id: event._id, at: event.at });

/** Numbers the fillers: `fillTo` counts from the collection's size, which the cases that delete change. */
let filled = 0;

/** Fills every collection to `total` with other owners' documents: 5,000 installations of 2,000 tenants, 5,000 apps. */
async function growTo(total: number): Promise<void> {
  const installationOf = (i: number) => ({
    installationId: `fill-installation-${i % 5_000}`,
    tenantId: `fill-tenant-${(i % 5_000) % 2_000}`,
  });
  await fillTo(db.collection<TenantDoc>('tenants'), total, (i) => tenant(`fill-tenant-${i}`, 1000 + (i % 365)));
  await fillTo(db.collection<AppDoc>('apps'), total, (i) => app(`fill-app-${i}`, 1000 + (i % 365)));
  // Other apps' drafts: the published list is the marketplace's catalogue (its size is its
  // answer); the case proves drafts are not read for it.
  await fillTo(db.collection<ContractVersionDoc>('contract_versions'), total, (i) =>
    version(`fill-app-${i % 5_000}`, 1 + Math.floor(i / 5_000), 'Draft', day(1000)),
  );
  await fillTo(db.collection<InstallationDoc>('installations'), total, (i) => {
    const { installationId, tenantId } = installationOf(i);
    return installation(
      i < 5_000 ? installationId : `fill-installation-${i}`,
      tenantId,
      `fill-app-${i}`,
      1000 + (i % 365),
      i < 5_000 ? 'Connected' : 'Uninstalled',
    );
  });
  await fillTo(db.collection<ApiKeyDoc>('api_keys'), total, (i) => {
    const { installationId, tenantId } = installationOf(i);
    return apiKey(`fill-key-${i}`, tenantId, installationId, i < 5_000 ? 'active' : 'revoked', i % 365);
  });
  await fillTo(db.collection<OAuthStateDoc>('oauth_states'), total, (i) => ({
    ...installationOf(i),
    ...stateFields(`fill-state-${++filled}`, later(1)),
  }));
  await fillTo(db.collection<IdempotencyRecordDoc>('idempotency_records'), total, (i) => {
    const owner = installationOf(i);
    return { _id: `${owner.installationId}:fill-${++filled}`, ...owner, ...recordFields(later(24)) };
  });
  // Other tenants' tokens: live ones, and revoked ones that have expired (the revocation list is
  // of unexpired ones: its answer stays the same).
  await fillTo(db.collection<TenantTokenDoc>('tenant_tokens'), total, (i) => {
    const tenantId = `fill-tenant-${i % 2_000}`;
    if (i % 10 !== 0) return { ...tenantToken(`fill-token-${i}`, day(i % 365), later(24 * 30)), tenantId };
    const expired = later(-1 - (i % 100));
    return {
      ...tenantToken(`fill-token-${i}`, day(i % 365), expired),
      tenantId,
      revokedAt: day(i % 365),
      revokedBy: 'admin:ops@example.com',
      revokedUntil: expired,
    };
  });
  // Other tenants' events of the last hours (the retention cutoff and the pages under test are older).
  await fillTo(db.collection<AuditEventDoc>('audit_events'), total, (i) =>
    auditEvent(`fill-tenant-${i % 2_000}`, NOW.getTime() - 3_600_000 + (i % 3_000_000)),
  );
}

it('serves every repository query from an index: the time per lookup does not grow with the data', async () => {
  const store = gatewayRepositories(db);
  const {
    tenants,
    apps,
    contractVersions,
    installations,
    apiKeys,
    oauthStates,
    idempotencyRecords,
    tenantTokens,
    auditEvents,
  } = store;

  // The data under test: a tenant and its neighbour; two apps, one with a published version and
  // two drafts; three live installations of the tenant and an uninstalled one; two active keys
  // and a revoked one; a stored response. Pools for the cases that consume a document per run.
  const POOL = 40; // more than the runs of a case at both sizes (2 x 16)
  await tenants.insert(tenant(TENANT, 0));
  await tenants.insert(tenant(OTHER_TENANT, 1));
  await apps.insert(app(APP, 0));
  await apps.insert(app(OTHER_APP, 1));
  await contractVersions.insert(version(APP, 1, 'Published'));
  await contractVersions.insert(version(APP, 2, 'Draft'));
  await contractVersions.insert(version(APP, 3, 'Draft'));
  await contractVersions.insert(version(OTHER_APP, 1, 'Published'));
  for (let k = 1; k <= POOL; k++) await contractVersions.insert(version('app-publishing', k, 'Draft'));
  for (const [n, id] of [INSTALLATION, 'installation-2', 'installation-3'].entries()) {
    await installations.insert(
      { tenantId: TENANT },
      { ...installationFields, _id: id, appId: `app-${n}`, installedAt: day(n) },
    );
  }
  await installations.insert(
    { tenantId: TENANT },
    {
      ...installationFields,
      _id: 'installation-uninstalled',
      appId: 'app-0',
      status: 'Uninstalled',
      slot: 'installation-uninstalled',
    },
  );
  await installations.insert(
    { tenantId: OTHER_TENANT },
    { ...installationFields, _id: 'installation-next-door', appId: 'app-0' },
  );
  for (let k = 1; k <= POOL; k++)
    await installations.insert(
      { tenantId: 'tenant-events' },
      { ...installationFields, _id: `installation-events-${k}`, appId: `app-${k}` },
    );
  await apiKeys.insert(OWNER, keyFields('key-under-test'));
  await apiKeys.insert(OWNER, keyFields('key-2'));
  await apiKeys.insert(OWNER, { ...keyFields('key-old'), status: 'revoked', revokedAt: day(1) });
  await apiKeys.insert({ tenantId: TENANT, installationId: 'installation-2' }, keyFields('key-to-revoke'));
  for (let k = 1; k <= POOL; k++) {
    await oauthStates.insert(OWNER, stateFields(`state-to-take-${k}`, later(1)));
    const owner = { tenantId: TENANT, installationId: `installation-with-states-${k}` };
    await oauthStates.insert(owner, stateFields(`state-a-${k}`, later(1)));
    await oauthStates.insert(owner, stateFields(`state-b-${k}`, later(1)));
  }
  // Tokens of the tenant: three live, one revoked and unexpired (in the revocation list), one to revoke per run.
  for (let k = 1; k <= 3; k++)
    await tenantTokens.insert({ tenantId: TENANT }, tenantToken(`token-${k}`, day(k), later(24 * 30)));
  await tenantTokens.insert({ tenantId: TENANT }, tenantToken('token-revoked', day(4), later(24)));
  await tenantTokens.revoke({ tenantId: TENANT }, 'token-revoked', NOW, 'admin:ops@example.com');
  for (let k = 1; k <= POOL; k++)
    await tenantTokens.insert({ tenantId: TENANT }, tenantToken(`token-to-revoke-${k}`, day(0), later(24)));
  // The tenant's audit events of two days ago (older than the fillers), and one of another tenant.
  const twoDaysAgo = NOW.getTime() - 2 * 86_400_000;
  const tenantEvents = [0, 1, 2, 3].map((k) => auditEvent(TENANT, twoDaysAgo + k * 1_000));
  for (const event of tenantEvents) await auditEvents.append(event);
  const olderEvent = auditEvent(OTHER_TENANT, twoDaysAgo - 1_000);
  await auditEvents.append(olderEvent);
  // Keys in a rotation's overlap: the installation's two active keys are given an expiry per run.
  const overlapOwner = { tenantId: TENANT, installationId: 'installation-overlapping' };
  await apiKeys.insert(overlapOwner, keyFields('key-overlap-old'));
  await apiKeys.insert(overlapOwner, keyFields('key-overlap-new'));
  const stored = recordFields(later(24));
  await idempotencyRecords.save(OWNER, KEY_HASH, stored);
  await idempotencyRecords.save(OWNER, 'key-hash-expired', recordFields(later(-1)));

  const next: Record<string, number> = {};
  const counter = (name: string) => (next[name] = (next[name] ?? 0) + 1);
  const cases: LookupCase[] = [
    {
      name: 'TenantsRepository.insert: a new tenant',
      run: async () => {
        const n = counter('tenant');
        await tenants.insert(tenant(`tenant-new-${n}`, 10 + n));
      },
    },
    {
      name: 'TenantsRepository.findTenant: by id',
      run: async () =>
        expect(await tenants.findTenant({ tenantId: TENANT })).toMatchObject({ _id: TENANT, slug: TENANT }),
    },
    {
      name: "TenantsRepository.profileOf: the tenant's currency and language",
      run: async () =>
        expect(await tenants.profileOf({ tenantId: TENANT })).toEqual({ currencyCode: 'EUR', defaultLanguage: 'de' }),
    },
    {
      name: 'TenantsRepository.findBySlug: an administrator looks a tenant up',
      run: async () => expect(await tenants.findBySlug(TENANT)).toMatchObject({ _id: TENANT }),
    },
    {
      name: "TenantsRepository.setProcessorSecrets: the tenant's payment processor secrets",
      run: async () =>
        expect(
          await tenants.setProcessorSecrets(
            { tenantId: TENANT },
            { currentSealed: 'v1.sealed', rotatedAt: later(0), previousSealed: null, previousValidUntil: null },
          ),
        ).toBe(true),
    },
    {
      name: "TenantsRepository.processorSecretsOf: the tenant's payment processor secrets",
      run: async () =>
        expect(await tenants.processorSecretsOf({ tenantId: TENANT })).toMatchObject({ currentSealed: 'v1.sealed' }),
    },
    {
      name: 'AppsRepository.insert: a new app',
      run: async () => {
        const n = counter('app');
        await apps.insert(app(`app-new-${n}`, 10 + n));
      },
    },
    {
      name: 'AppsRepository.findById: by id',
      run: async () => expect(await apps.findById(APP)).toMatchObject({ _id: APP, slug: APP }),
    },
    {
      name: 'AppsRepository.findBySlug: by slug',
      run: async () => expect(await apps.findBySlug(OTHER_APP)).toMatchObject({ _id: OTHER_APP }),
    },
    {
      name: 'AppsRepository.findByIds: the apps of the published versions, oldest first',
      run: async () =>
        expect((await apps.findByIds([OTHER_APP, APP, 'app-unknown'])).map((a) => a._id)).toEqual([APP, OTHER_APP]),
    },
    {
      name: 'ContractVersionsRepository.insert: the next version of an app',
      run: async () => {
        const n = counter('version');
        await contractVersions.insert(version('app-growing', n, 'Draft'));
      },
    },
    {
      name: "ContractVersionsRepository.findLatestForApp: the app's highest number",
      run: async () =>
        expect(await contractVersions.findLatestForApp(APP)).toMatchObject({
          _id: contractVersionId(APP, 3),
          version: 3,
        }),
    },
    {
      name: "ContractVersionsRepository.listForApp: the app's versions by number",
      run: async () => expect((await contractVersions.listForApp(APP)).map((v) => v.version)).toEqual([1, 2, 3]),
    },
    {
      name: 'ContractVersionsRepository.findVersion: by app and number',
      run: async () =>
        expect(await contractVersions.findVersion(APP, 2)).toMatchObject({ appId: APP, version: 2, status: 'Draft' }),
    },
    {
      name: 'ContractVersionsRepository.findPublishedVersion: a published version',
      run: async () =>
        expect(await contractVersions.findPublishedVersion(APP, 1)).toMatchObject({ appId: APP, version: 1 }),
    },
    {
      name: 'ContractVersionsRepository.findPublishedVersion: a draft is not found',
      run: async () => expect(await contractVersions.findPublishedVersion(APP, 2)).toBeUndefined(),
    },
    {
      // Before publishDraft's case, which adds published versions of `app-publishing`.
      name: 'ContractVersionsRepository.listPublished: what tenants browse',
      run: async () => {
        const published = await contractVersions.listPublished();
        expect(published.filter((v) => v.appId !== 'app-publishing').map((v) => v._id)).toEqual(
          [contractVersionId(OTHER_APP, 1), contractVersionId(APP, 1)].sort(),
        );
        expect(published.every((v) => v.status === 'Published')).toBe(true);
      },
    },
    {
      name: 'ContractVersionsRepository.updateDraft: a draft changes',
      run: async () =>
        expect(
          await contractVersions.updateDraft(
            APP,
            3,
            { authType: 'ApiKey', scopes: ['Orders.Read'], subscribedEvents: [], webhookUrl: null, oauth2: null },
            NOW,
          ),
        ).toMatchObject({ version: 3, authType: 'ApiKey', status: 'Draft' }),
    },
    {
      name: 'ContractVersionsRepository.updateDraft: a published version does not',
      run: async () =>
        expect(
          await contractVersions.updateDraft(
            APP,
            1,
            { authType: 'ApiKey', scopes: [], subscribedEvents: [], webhookUrl: null, oauth2: null },
            NOW,
          ),
        ).toBeUndefined(),
    },
    {
      name: 'ContractVersionsRepository.publishDraft: a draft is published',
      run: async () =>
        expect(await contractVersions.publishDraft('app-publishing', counter('publish'), NOW)).toMatchObject({
          status: 'Published',
          publishedAt: NOW,
        }),
    },
    {
      name: 'InstallationsRepository.insert: a tenant installs an app',
      run: async () => {
        const n = counter('install');
        expect(
          await installations.insert(
            { tenantId: 'tenant-installing' },
            { ...installationFields, _id: `installation-new-${n}`, appId: `app-${n}` },
          ),
        ).toMatchObject({ tenantId: 'tenant-installing' });
      },
    },
    {
      name: 'InstallationsRepository.insert: a second live installation of an app is refused',
      run: async () => {
        await expect(
          installations.insert({ tenantId: TENANT }, { ...installationFields, _id: randomUUID(), appId: 'app-0' }),
        ).rejects.toMatchObject({ code: 11000 });
      },
    },
    {
      name: "InstallationsRepository.listLive: the tenant's installations, not the uninstalled",
      run: async () =>
        expect((await installations.listLive({ tenantId: TENANT })).map((i) => i._id)).toEqual([
          INSTALLATION,
          'installation-2',
          'installation-3',
        ]),
    },
    {
      name: "InstallationsRepository.findLive: one of the tenant's installations",
      run: async () =>
        expect(await installations.findLive({ tenantId: TENANT }, INSTALLATION)).toMatchObject({
          _id: INSTALLATION,
          tenantId: TENANT,
        }),
    },
    {
      name: "InstallationsRepository.findLive: another tenant's installation is not found",
      run: async () =>
        expect(await installations.findLive({ tenantId: TENANT }, 'installation-next-door')).toBeUndefined(),
    },
    {
      name: 'InstallationsRepository.findLive: an uninstalled one is not found',
      run: async () =>
        expect(await installations.findLive({ tenantId: TENANT }, 'installation-uninstalled')).toBeUndefined(),
    },
    {
      name: 'InstallationsRepository.markConnecting: an OAuth connect starts',
      run: async () =>
        expect(await installations.markConnecting({ tenantId: TENANT }, 'installation-2', NOW)).toBe(true),
    },
    {
      name: "InstallationsRepository.markConnecting: another tenant's installation is untouched",
      run: async () =>
        expect(await installations.markConnecting({ tenantId: OTHER_TENANT }, INSTALLATION, NOW)).toBe(false),
    },
    {
      name: 'InstallationsRepository.revertConnecting: a failed connect goes back',
      run: async () => {
        await installations.markConnecting({ tenantId: TENANT }, 'installation-2', NOW);
        expect(await installations.revertConnecting({ tenantId: TENANT }, 'installation-2', 'Installed', NOW)).toBe(
          true,
        );
        expect(await installations.revertConnecting({ tenantId: TENANT }, 'installation-2', 'Installed', NOW)).toBe(
          false,
        ); // no longer connecting
      },
    },
    {
      name: 'InstallationsRepository.setApiKeyId: a rotated key',
      run: async () =>
        expect(
          await installations.setApiKeyId({ tenantId: TENANT }, 'installation-3', `key-${counter('rotate')}`, NOW),
        ).toBe(true),
    },
    {
      name: 'InstallationsRepository.updateWithEvent: a disconnect with its event staged',
      run: async () => {
        const id = `installation-events-${counter('event')}`;
        expect(
          await installations.updateWithEvent(
            { tenantId: 'tenant-events' },
            id,
            { status: 'Disconnected', apiKeyId: null, updatedAt: NOW, eventRevision: 2 },
            installationEvent(id),
            NOW,
          ),
        ).toBe(true);
      },
    },
    {
      name: 'ApiKeysRepository.insert: a new key',
      run: async () => {
        await apiKeys.insert(
          { tenantId: TENANT, installationId: 'installation-3' },
          keyFields(`key-new-${counter('key')}`),
        );
      },
    },
    {
      name: 'ApiKeysRepository.findByIdAcrossTenants: authentication by key id',
      run: async () =>
        expect(await apiKeys.findByIdAcrossTenants('key-under-test')).toMatchObject({
          _id: 'key-under-test',
          tenantId: TENANT,
          installationId: INSTALLATION,
        }),
    },
    {
      name: "ApiKeysRepository.listActiveIds: the installation's active keys but the new one",
      run: async () => expect(await apiKeys.listActiveIds(OWNER, 'key-2')).toEqual(['key-under-test']),
    },
    {
      name: "ApiKeysRepository.revoke: one of the installation's keys",
      run: async () =>
        expect(
          await apiKeys.revoke({ tenantId: TENANT, installationId: 'installation-2' }, ['key-to-revoke'], NOW),
        ).toBe(1),
    },
    {
      name: "ApiKeysRepository.revoke: another tenant's key is untouched",
      run: async () =>
        expect(
          await apiKeys.revoke({ tenantId: OTHER_TENANT, installationId: INSTALLATION }, ['key-under-test'], NOW),
        ).toBe(0),
    },
    {
      name: "ApiKeysRepository.listActive: the installation's active keys, with their expiry",
      run: async () =>
        expect((await apiKeys.listActive(OWNER)).map((k) => k._id).sort()).toEqual(['key-2', 'key-under-test']),
    },
    {
      name: 'ApiKeysRepository.expire: the previous key of a rotation with an overlap',
      run: async () => {
        const n = counter('expire');
        // An earlier end every run: the update only ever shortens a key's life.
        expect(await apiKeys.expire(overlapOwner, ['key-overlap-old'], later(1_000 - n))).toBe(1);
      },
    },
    {
      name: "ApiKeysRepository.expire: another tenant's key is untouched",
      run: async () =>
        expect(
          await apiKeys.expire({ tenantId: OTHER_TENANT, installationId: INSTALLATION }, ['key-under-test'], NOW),
        ).toBe(0),
    },
    {
      name: 'TenantTokensRepository.insert: an administrator mints a token',
      run: async () => {
        await tenantTokens.insert(
          { tenantId: OTHER_TENANT },
          tenantToken(`token-new-${counter('token')}`, NOW, later(24)),
        );
      },
    },
    {
      name: "TenantTokensRepository.find: one of the tenant's tokens",
      run: async () =>
        expect(await tenantTokens.find({ tenantId: TENANT }, 'token-2')).toMatchObject({
          _id: 'token-2',
          tenantId: TENANT,
        }),
    },
    {
      name: "TenantTokensRepository.find: another tenant's token is not found",
      run: async () => expect(await tenantTokens.find({ tenantId: OTHER_TENANT }, 'token-2')).toBeUndefined(),
    },
    {
      name: "TenantTokensRepository.listForTenant: the tenant's tokens, newest first",
      run: async () =>
        expect((await tenantTokens.listForTenant({ tenantId: TENANT }, 5)).map((t) => t._id)).toEqual([
          'token-revoked',
          'token-3',
          'token-2',
          'token-1',
          expect.stringMatching(/^token-to-revoke-/),
        ]),
    },
    {
      name: "TenantTokensRepository.revoke: one of the tenant's tokens",
      run: async () =>
        expect(
          await tenantTokens.revoke({ tenantId: TENANT }, `token-to-revoke-${counter('revoke-token')}`, NOW, 'admin'),
        ).toBe(true),
    },
    {
      name: "TenantTokensRepository.revoke: another tenant's token is untouched",
      run: async () =>
        expect(await tenantTokens.revoke({ tenantId: OTHER_TENANT }, 'token-1', NOW, 'admin')).toBe(false),
    },
    {
      // After the revoke cases: the list holds the tenant's revoked tokens (the fillers' expired).
      name: 'TenantTokensRepository.listRevokedIdsAcrossTenants: the revocation list',
      run: async () => {
        const ids = await tenantTokens.listRevokedIdsAcrossTenants(NOW);
        expect(ids).toContain('token-revoked');
        expect(ids.every((id) => id === 'token-revoked' || id.startsWith('token-to-revoke-'))).toBe(true);
      },
    },
    {
      name: 'AuditEventsRepository.append: a mutation is recorded',
      run: async () => {
        await auditEvents.append(auditEvent('tenant-auditing', NOW.getTime() - 60_000 + counter('append')));
      },
    },
    {
      name: "AuditEventsRepository.listForTenant: the tenant's latest events",
      run: async () =>
        expect((await auditEvents.listForTenant({ tenantId: TENANT }, { limit: 3 })).map((e) => e._id)).toEqual(
          [3, 2, 1].map((k) => tenantEvents[k]!._id),
        ),
    },
    {
      name: "AuditEventsRepository.listForTenant: the next page, before the last one's id",
      run: async () =>
        expect(
          (await auditEvents.listForTenant({ tenantId: TENANT }, { before: pageAt(tenantEvents[1]!), limit: 3 })).map(
            (e) => e._id,
          ),
        ).toEqual([tenantEvents[0]!._id]),
    },
    {
      // A later page: the range below its start (the first pages of all events are left out of the
      // timing like the other administrators' lists of everything: see NOT_TIMED).
      name: 'AuditEventsRepository.listAcrossTenants: a page of every tenant, before an event',
      run: async () =>
        expect(
          (await auditEvents.listAcrossTenants({ before: pageAt(tenantEvents[1]!), limit: 2 })).map((e) => e._id),
        ).toEqual([tenantEvents[0]!._id, olderEvent._id]),
    },
    {
      name: 'AuditEventsRepository.deleteOlderThan: the retention sweep removes an old event',
      run: async () => {
        const cutoff = NOW.getTime() - 300 * 86_400_000;
        await auditEvents.append(auditEvent('tenant-audited-long-ago', cutoff - 1_000 * counter('old-event')));
        expect(await auditEvents.deleteOlderThan(new Date(cutoff))).toBe(1);
      },
    },
    {
      name: 'OAuthStatesRepository.insert: a connect starts',
      run: async () => {
        await oauthStates.insert(
          { tenantId: TENANT, installationId: 'installation-connecting' },
          stateFields(`state-new-${counter('state')}`, later(1)),
        );
      },
    },
    {
      name: 'OAuthStatesRepository.takeByStateHashAcrossTenants: the callback takes its state',
      run: async () =>
        expect(await oauthStates.takeByStateHashAcrossTenants(`state-to-take-${counter('take')}`)).toMatchObject({
          tenantId: TENANT,
          installationId: INSTALLATION,
        }),
    },
    {
      name: "OAuthStatesRepository.deleteForInstallation: the installation's pending states end",
      run: async () =>
        expect(
          await oauthStates.deleteForInstallation({
            tenantId: TENANT,
            installationId: `installation-with-states-${counter('states')}`,
          }),
        ).toBe(2),
    },
    {
      name: 'OAuthStatesRepository.deleteExpired: the sweep removes an expired state',
      run: async () => {
        await oauthStates.insert(OWNER, stateFields(`state-expired-${counter('expired-state')}`, later(-1)));
        expect(await oauthStates.deleteExpired(NOW)).toBe(1);
      },
    },
    {
      name: "IdempotencyRecordsRepository.findUnexpired: the installation's stored response",
      run: async () =>
        expect(await idempotencyRecords.findUnexpired(OWNER, KEY_HASH, NOW)).toMatchObject({
          tenantId: TENANT,
          installationId: INSTALLATION,
          fingerprint: stored.fingerprint,
          body: stored.body,
        }),
    },
    {
      name: "IdempotencyRecordsRepository.findUnexpired: another tenant's is not found",
      run: async () =>
        expect(
          await idempotencyRecords.findUnexpired(
            { tenantId: OTHER_TENANT, installationId: INSTALLATION },
            KEY_HASH,
            NOW,
          ),
        ).toBeUndefined(),
    },
    {
      name: 'IdempotencyRecordsRepository.save: a new response',
      run: async () => {
        await idempotencyRecords.save(OWNER, `key-hash-new-${counter('record')}`, recordFields(later(24)));
      },
    },
    {
      name: 'IdempotencyRecordsRepository.save: an expired record is replaced',
      run: async () => {
        await idempotencyRecords.save(
          OWNER,
          'key-hash-replaced',
          recordFields(later(counter('replaced') % 2 === 0 ? -1 : 24)),
        );
      },
    },
    {
      name: 'IdempotencyRecordsRepository.deleteExpired: the sweep removes an expired record',
      run: async () => {
        await idempotencyRecords.save(OWNER, `key-hash-expiring-${counter('expired-record')}`, recordFields(later(-1)));
        // The expired record under test and, once, the seeded one; at most one `key-hash-replaced`.
        expect(await idempotencyRecords.deleteExpired(NOW)).toBeGreaterThanOrEqual(1);
      },
    },
  ];

  // Every repository method has a case (the administrators' lists aside, see NOT_TIMED).
  const methods = Object.values(store).flatMap((repository) => queryMethodsOf(repository));
  expect([...new Set(cases.map((c) => methodOfCase(c.name)))].sort()).toEqual(
    methods.filter((m) => !NOT_TIMED.includes(m)).sort(),
  );
  expect(NOT_TIMED.every((m) => methods.includes(m))).toBe(true);

  const timings = await timeLookups(cases, growTo);
  console.log(describeTimings(timings));
  if (timings.some(growsWithData))
    throw new Error(`queries that grow with the data (a scan):\n${describeTimings(timings)}`);

  // The writes landed where they should (the cases above checked the reads).
  expect(await tenants.findBySlug('tenant-new-1')).toMatchObject({ _id: 'tenant-new-1' });
  expect(await apps.findById('app-new-1')).toMatchObject({ slug: 'app-new-1' });
  expect(await contractVersions.findLatestForApp('app-growing')).toMatchObject({ version: next.version });
  expect(await installations.findLive({ tenantId: TENANT }, 'installation-2')).toMatchObject({ status: 'Installed' });
  expect(await installations.findLive({ tenantId: TENANT }, INSTALLATION)).toMatchObject({ status: 'Connected' }); // not another tenant's to change
  expect(await installations.findLive({ tenantId: TENANT }, 'installation-3')).toMatchObject({
    apiKeyId: `key-${next.rotate}`,
  });
  const disconnected = await db.collection<InstallationDoc>('installations').findOne({ _id: 'installation-events-1' });
  expect(disconnected).toMatchObject({ status: 'Disconnected', eventRevision: 2 });
  expect((disconnected as unknown as Record<string, unknown[]>)[OUTBOX]).toHaveLength(1);
  expect(await apiKeys.findByIdAcrossTenants('key-to-revoke')).toMatchObject({ status: 'revoked' });
  expect(await apiKeys.findByIdAcrossTenants('key-under-test')).toMatchObject({ status: 'active' });
  expect(await apiKeys.findByIdAcrossTenants('key-new-1')).toMatchObject({
    installationId: 'installation-3',
    tenantId: TENANT,
  });
  expect(await oauthStates.takeByStateHashAcrossTenants('state-new-1')).toMatchObject({
    installationId: 'installation-connecting',
  });
  expect(await idempotencyRecords.findUnexpired(OWNER, 'key-hash-new-1', NOW)).toMatchObject({ status: 201 });
  expect((await apiKeys.listActive(overlapOwner)).find((k) => k._id === 'key-overlap-old')).toMatchObject({
    expiresAt: later(1_000 - next.expire!),
  });
  expect(await apiKeys.findByIdAcrossTenants('key-overlap-new')).not.toHaveProperty('expiresAt', expect.any(Date));
  expect(await tenantTokens.find({ tenantId: OTHER_TENANT }, 'token-new-1')).toMatchObject({ expiresAt: later(24) });
  expect(await tenantTokens.find({ tenantId: TENANT }, 'token-to-revoke-1')).toMatchObject({
    revokedAt: NOW,
    revokedBy: 'admin',
    revokedUntil: later(24),
  });
  expect(await tenantTokens.find({ tenantId: TENANT }, 'token-1')).toMatchObject({ revokedAt: null }); // not another tenant's to revoke
  expect(await auditEvents.listForTenant({ tenantId: 'tenant-auditing' }, { limit: 1 })).toHaveLength(1);

  // The lists left out of the timing still answer: every tenant and app, oldest first, capped.
  expect((await tenants.listAllAcrossTenants(1000)).map((t) => t._id).slice(0, 2)).toEqual([TENANT, OTHER_TENANT]);
  expect(await tenants.listAllAcrossTenants(1000)).toHaveLength(1000);
  expect((await apps.listAll(1000)).map((a) => a._id).slice(0, 2)).toEqual([APP, OTHER_APP]);
  // The first page of every tenant's events: the newest (the appended ones are among the latest).
  const latest = await auditEvents.listAcrossTenants({ limit: 50 });
  expect(latest).toHaveLength(50);
  expect(latest.map((e) => e._id)).toEqual([...latest.map((e) => e._id)].sort().reverse());
});
