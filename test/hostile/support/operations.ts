import { send, type HostileCluster } from './cluster';

/*
 * Every operation of every API the cluster serves, read from the OpenAPI documents it serves (not
 * from the code that writes them): a new operation appears here as soon as a service documents it.
 */

/** How an API answers errors: problem+json (gateway and the services behind it) or the provider envelope. */
export type ErrorFormat = 'problem' | 'envelope';

export interface ApiDefinition {
  /** Where its OpenAPI document is served, and with which Authorization header. */
  document: { url: string; authorization?: string };
  /** The base URL its paths are relative to (the document's server). */
  base: string;
  format: ErrorFormat;
}

export type ApiName =
  | 'partner'
  | 'marketplace'
  | 'tenant-catalog'
  | 'tenant-orders'
  | 'tenant-deliveries'
  | 'tenant-webhooks'
  | 'tenant-provider-connections'
  | 'provider'
  | 'provider-admin'
  | 'provider-courier'
  | 'provider-callbacks-admin';

export function apiDefinitions(cluster: HostileCluster, tenantToken: string): Record<ApiName, ApiDefinition> {
  const gw = cluster.gateway.url;
  const pd = cluster.provider.url;
  const tenantDoc = (part: string) => ({
    document: { url: `${gw}/api/tenant/v1/${part}/openapi.json`, authorization: `Bearer ${tenantToken}` },
    base: gw,
    format: 'problem' as const,
  });
  const admin = `Bearer ${cluster.providerAdminToken}`;
  return {
    partner: { document: { url: `${gw}/api/partner/v1/openapi.json` }, base: gw, format: 'problem' },
    marketplace: { document: { url: `${gw}/api/marketplace/openapi.json` }, base: gw, format: 'problem' },
    'tenant-catalog': tenantDoc('catalog'),
    'tenant-orders': tenantDoc('orders'),
    'tenant-deliveries': tenantDoc('deliveries'),
    'tenant-webhooks': tenantDoc('webhooks'),
    // delivery-assignment's provider connections and dispatch (tenant and administrator operations
    // through the gateway; its callback route, served by delivery-assignment itself, is excluded).
    'tenant-provider-connections': tenantDoc('provider-connections'),
    provider: { document: { url: `${pd}/v1/openapi.json` }, base: `${pd}/v1`, format: 'envelope' },
    'provider-admin': {
      document: { url: `${pd}/admin/v1/openapi.json`, authorization: admin },
      base: pd,
      format: 'envelope',
    },
    'provider-courier': {
      document: { url: `${pd}/courier/v1/openapi.json` },
      base: `${pd}/courier/v1`,
      format: 'envelope',
    },
    'provider-callbacks-admin': {
      document: { url: `${cluster.sender.url}/admin/v1/provider-callbacks/openapi.json`, authorization: admin },
      base: cluster.sender.url,
      format: 'problem',
    },
  };
}

export interface Operation {
  api: ApiName;
  /** `METHOD /path/{param}` as the document writes it. */
  key: string;
  pathParams: string[];
  /** The statuses the document lists for it. */
  statuses: number[];
}

export async function loadOperations(apis: Record<ApiName, ApiDefinition>): Promise<Operation[]> {
  const operations: Operation[] = [];
  for (const [api, def] of Object.entries(apis) as [ApiName, ApiDefinition][]) {
    const res = await send(def.document.url, 'GET', def.document.authorization);
    if (res.status !== 200 || !res.body?.paths) throw new Error(`the ${api} document: ${res.status} ${res.text}`);
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'parameters') continue;
        operations.push({
          api,
          key: `${method.toUpperCase()} ${path}`,
          pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
          statuses: Object.keys(op.responses ?? {})
            .map(Number)
            .filter((s) => Number.isInteger(s)),
        });
      }
    }
  }
  return operations;
}
