import { randomBytes } from 'node:crypto';
import type { KafkaMessage } from 'kafkajs';
import { MongoClient, type Db } from 'mongodb';
import { createKafka, headerText, kafkaConnectionFromEnv } from '@marketplace/events';
import {
  apiClient,
  connectedApp,
  createTenant,
  freePort,
  partnerCall,
  quietLogger,
  readTopic,
  stackEnv,
  startGateway,
  startServiceProcess,
  type ApiClient,
  type RawTopicReader,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';

/** catalog and gateway-auth as real processes, each with its own database, the gateway forwarding to this catalog. */
export interface CatalogCluster {
  gateway: TestGateway;
  catalog: ServiceProcess;
  catalogDatabase: string;
  stop(): Promise<void>;
}

export async function startCatalogCluster(catalogEnv: Record<string, string> = {}): Promise<CatalogCluster> {
  const catalogDatabase = `it_cat_${randomBytes(4).toString('hex')}`;
  const catalog = await startServiceProcess('catalog', await freePort(), {
    MONGO_DATABASE: catalogDatabase,
    ...catalogEnv,
  });
  const gateway = await startGateway({
    CATALOG_URL: catalog.url,
    RATE_LIMIT_PER_INSTALLATION: '100000',
    RATE_LIMIT_PER_IP: '100000',
  });
  return {
    gateway,
    catalog,
    catalogDatabase,
    stop: async () => {
      await gateway.stop();
      await catalog.stop();
    },
  };
}

/** A tenant with its catalog API client and a connected partner app holding Catalog.Read. */
export interface CatalogTenant {
  tenantId: string;
  tenant: ApiClient;
  /** Tenant catalog API: paths relative to /api/tenant/v1/catalog. */
  manage(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /** Partner API: paths relative to /api/partner/v1/catalog. */
  read(path: string): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  apiKey: string;
}

export async function catalogTenant(
  cluster: CatalogCluster,
  profile: { currencyCode?: string; defaultLanguage?: string } = {},
): Promise<CatalogTenant> {
  const owner = await createTenant(cluster.gateway, profile);
  const app = await connectedApp(cluster.gateway, ['Catalog.Read'], [], owner);
  return {
    tenantId: owner.tenantId,
    tenant: owner.tenant,
    apiKey: app.apiKey,
    manage: (method, path, body) => owner.tenant.call(method, `/api/tenant/v1/catalog${path}`, body),
    read: (path) => partnerCall(cluster.gateway, app.apiKey, 'GET', `/catalog${path}`),
  };
}

/** Where a test branch is: an active branch needs an address and coordinates (it takes orders). */
export const LOCATION = {
  address: { line1: 'Torstrasse 1', city: 'Berlin', countryCode: 'DE' },
  coordinates: { latitude: 52.53, longitude: 13.4 },
};

/** Creates a resource and returns its body, failing loudly otherwise. */
export async function created(t: CatalogTenant, path: string, body: unknown): Promise<any> {
  const res = await t.manage('POST', path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// More support, for the tests of freshness, events, concurrency and identity.

/** A fresh tenant bearer token, minted by the platform admin (valid on every gateway sharing its database). */
export async function tenantToken(gateway: TestGateway, tenantId: string): Promise<string> {
  const res = await gateway.admin.call('POST', `/api/admin/v1/tenants/${tenantId}/tokens`, {});
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`tenant token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** A tenant API call with a body sent as given (malformed JSON, another media type). */
export async function rawTenantCall(
  gateway: TestGateway,
  token: string,
  method: string,
  path: string,
  body: string,
  contentType = 'application/json',
) {
  const res = await fetch(`${gateway.url}/api/tenant/v1/catalog${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/**
 * A second catalog process on the same catalog database, behind a second gateway on the same
 * gateway database: the same tenants, tokens and API keys work on both.
 */
export interface SecondInstance {
  catalog: ServiceProcess;
  gateway: TestGateway;
  stop(): Promise<void>;
}

export async function startSecondInstance(
  cluster: CatalogCluster,
  catalogEnv: Record<string, string> = {},
): Promise<SecondInstance> {
  const catalog = await startServiceProcess('catalog', await freePort(), {
    MONGO_DATABASE: cluster.catalogDatabase,
    ...catalogEnv,
  });
  const gateway = await startGateway({
    CATALOG_URL: catalog.url,
    MONGO_DATABASE: cluster.gateway.database,
    REDIS_KEY_PREFIX: `${cluster.gateway.database}:`,
    RATE_LIMIT_PER_INSTALLATION: '100000',
    RATE_LIMIT_PER_IP: '100000',
  });
  return {
    catalog,
    gateway,
    stop: async () => {
      await gateway.stop();
      await catalog.stop();
    },
  };
}

/** The same tenant and partner app, called through another gateway. */
export async function throughGateway(t: CatalogTenant, gateway: TestGateway): Promise<CatalogTenant> {
  const tenant = apiClient(gateway.url, await tenantToken(gateway, t.tenantId));
  return {
    tenantId: t.tenantId,
    tenant,
    apiKey: t.apiKey,
    manage: (method, path, body) => tenant.call(method, `/api/tenant/v1/catalog${path}`, body),
    read: (path) => partnerCall(gateway, t.apiKey, 'GET', `/catalog${path}`),
  };
}

/** The catalog's own database, for looking at (or planting) what the service stores. */
export async function catalogDb(cluster: CatalogCluster): Promise<{ db: Db; close(): Promise<void> }> {
  const client = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  return { db: client.db(cluster.catalogDatabase), close: () => client.close() };
}

/** One message of the catalog topic, decoded (Confluent wire format: magic byte 0, schema id, JSON). */
export interface CatalogEvent {
  key: string;
  type: string;
  eventId: string;
  magicByte: number;
  data: any;
}

export function decodeCatalogEvent(message: KafkaMessage): CatalogEvent {
  const value = message.value!;
  return {
    key: message.key?.toString() ?? '',
    type: headerText(message.headers, 'event-type') ?? '',
    eventId: headerText(message.headers, 'event-id') ?? '',
    magicByte: value[0]!,
    data: JSON.parse(value.subarray(5).toString('utf8')),
  };
}

/** Reads the catalog topic from the beginning; `of(tenantId)` gives that tenant's events, decoded, in topic order. */
export async function catalogTopic(
  clientId: string,
): Promise<{ reader: RawTopicReader; of(tenantId: string): CatalogEvent[]; stop(): Promise<void> }> {
  const kafka = createKafka({ connection: kafkaConnectionFromEnv(stackEnv()), clientId, logger: quietLogger() });
  const reader = await readTopic(kafka, 'catalog');
  return {
    reader,
    of: (tenantId) => reader.messages.filter((m) => m.key?.toString() === tenantId).map(decodeCatalogEvent),
    stop: () => reader.stop(),
  };
}
