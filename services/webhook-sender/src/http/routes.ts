import type { RouterContext } from '@koa/router';
import { pathId, PROBE_ROUTES, RouteTable, type DeclaredRoute, type RequestState } from '@marketplace/http';
import { identityOf } from '@marketplace/identity';
import type { WebhookContext } from '../usecases/context';
import { getDelivery } from '../usecases/get-delivery';
import { listDeliveries } from '../usecases/list-deliveries';
import { redeliverWebhook } from '../usecases/redeliver-webhook';
import { sendTestEvent } from '../usecases/send-test-event';
import { tenantWebhooksApiDocument } from '@marketplace/contracts';
import { registerAdminRoutes } from './admin-routes';
import { listQuery } from './list-query';
import { registerPartnerRoutes } from './partner-routes';
import { deliveryView } from './views';

const PREFIX = '/api/tenant/v1/webhooks';
const tenantIdOf = (c: RouterContext<RequestState>) => identityOf(c, 'tenant').tenantId;

/**
 * Tenant API (through the gateway with a tenant bearer token): an installation's deliveries and
 * their attempts, dead letters, redelivery and the test event. /healthz, /readyz and /metrics come
 * from the shared HTTP app.
 */
export function registerRoutes(routes: RouteTable, ctx: WebhookContext): void {
  routes.get(`${PREFIX}/openapi.json`, 'tenant', (c) => {
    c.body = tenantWebhooksApiDocument;
  });
  routes.get(`${PREFIX}/installations/:installationId/deliveries`, 'tenant', async (c) => {
    const options = listQuery(c.query);
    const deliveries = await listDeliveries(ctx, tenantIdOf(c), pathId(c.params.installationId), options);
    c.body = deliveries.map((d) => deliveryView(d, false));
  });
  routes.post(`${PREFIX}/installations/:installationId/test`, 'tenant', async (c) => {
    const tenantId = tenantIdOf(c);
    c.status = 202;
    c.body = deliveryView(await sendTestEvent(ctx, tenantId, pathId(c.params.installationId)), true);
  });
  routes.get(`${PREFIX}/deliveries/:deliveryId`, 'tenant', async (c) => {
    c.body = deliveryView(await getDelivery(ctx, { tenantId: tenantIdOf(c) }, pathId(c.params.deliveryId)), true);
  });
  routes.post(`${PREFIX}/deliveries/:deliveryId/redeliver`, 'tenant', async (c) => {
    const tenantId = tenantIdOf(c);
    c.status = 202;
    c.body = deliveryView(await redeliverWebhook(ctx, { tenantId }, pathId(c.params.deliveryId)), false);
  });
}

/**
 * The route table with each route's audience, probes included, as the service serves it
 * (`node dist/main.js --routes`): the tenant routes above, the Partner API extension's
 * (partner-routes.ts) and the administrator routes (admin-routes.ts), all registered by
 * service.ts; registration only captures the context.
 */
export function declaredRoutes(): DeclaredRoute[] {
  const routes = new RouteTable();
  registerRoutes(routes, {} as WebhookContext);
  registerPartnerRoutes(routes, {} as WebhookContext);
  registerAdminRoutes(routes, {} as WebhookContext);
  return [...PROBE_ROUTES, ...routes.routes()];
}
