import { randomBytes } from 'node:crypto';
import { freePort, startServiceProcess, type ServiceProcess } from '@marketplace/testing';
import { connectedApp, createTenant, partnerCall, startGateway, type ApiClient, type TestGateway } from '../../../gateway-auth/test/support/gateway';

/** catalog and gateway-auth as real processes, each with its own database, the gateway forwarding to this catalog. */
export interface CatalogCluster {
  gateway: TestGateway;
  catalog: ServiceProcess;
  catalogDatabase: string;
  stop(): Promise<void>;
}

export async function startCatalogCluster(catalogEnv: Record<string, string> = {}): Promise<CatalogCluster> {
  const catalogDatabase = `it_cat_${randomBytes(4).toString('hex')}`;
  const catalog = await startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: catalogDatabase, ...catalogEnv });
  const gateway = await startGateway({ CATALOG_URL: catalog.url, RATE_LIMIT_PER_INSTALLATION: '100000', RATE_LIMIT_PER_IP: '100000' });
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

export async function catalogTenant(cluster: CatalogCluster, profile: { currencyCode?: string; defaultLanguage?: string } = {}): Promise<CatalogTenant> {
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

/** Creates a resource and returns its body, failing loudly otherwise. */
export async function created(t: CatalogTenant, path: string, body: unknown): Promise<any> {
  const res = await t.manage('POST', path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
