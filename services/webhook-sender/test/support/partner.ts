import { randomUUID } from 'node:crypto';
import {
  createTenant,
  partnerCall,
  pickupOrder,
  publishApp,
  restaurantMenu,
  type ApiClient,
  type DemoMenu,
} from '@marketplace/testing';
import { waitForInstallation, type WebhookCluster } from './cluster';

/** A tenant with a menu and an order source whose webhooks go to `webhookUrl`. */
export interface PartnerSetup {
  tenantId: string;
  tenant: ApiClient;
  installationId: string;
  apiKey: string;
  secret: string;
  menu: DemoMenu;
  order(overrides?: Record<string, unknown>): Promise<any>;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Tenant API of the webhook sender, under /api/tenant/v1/webhooks. */
  webhooks(method: string, path: string): Promise<{ status: number; body: any }>;
}

export async function connectedSource(
  cluster: WebhookCluster,
  webhookUrl: string,
  events = ['orders.created', 'orders.cancelled', 'payment.completed'],
  owner?: { tenantId: string; tenant: ApiClient; menu: DemoMenu },
): Promise<PartnerSetup> {
  const t = owner ?? (await createTenant(cluster.gateway));
  const menu = owner?.menu ?? (await restaurantMenu(t.tenant, t.tenantId, cluster.orderingDb));
  const { appId, version } = await publishApp(cluster.gateway, ['Catalog.Read', 'Orders.Create'], events, {
    webhookUrl,
  });
  const installed = await t.tenant.call('POST', '/api/tenant/v1/installations', { appId, contractVersion: version });
  const connected = await t.tenant.call('POST', `/api/tenant/v1/installations/${installed.body.id}/connect`);
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${JSON.stringify(connected.body)}`);
  await waitForInstallation(cluster, installed.body.id);
  const apiKey = connected.body.credentials.apiKey;
  const call = async (method: string, path: string, body?: unknown) =>
    partnerCall(cluster.gateway, apiKey, method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: method === 'GET' ? {} : { 'idempotency-key': randomUUID() },
    });
  return {
    tenantId: t.tenantId,
    tenant: t.tenant,
    installationId: installed.body.id,
    apiKey,
    secret: connected.body.credentials.webhookSigningSecret,
    menu,
    call,
    order: async (overrides = {}) => {
      const res = await call('POST', '/orders', pickupOrder(menu, overrides));
      if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
      return res.body;
    },
    webhooks: (method, path) => t.tenant.call(method, `/api/tenant/v1/webhooks${path}`),
  };
}
