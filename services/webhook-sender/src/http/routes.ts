import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { pathId, type RequestState } from '@marketplace/http';
import { identityOf } from '@marketplace/identity';
import type { WebhookContext } from '../usecases/context';
import { getDelivery, listDeliveries, redeliver, sendTestEvent } from '../usecases/manage';
import { tenantWebhooksApiDocument } from '@marketplace/contracts';
import { listQuery } from './list-query';
import { deliveryView } from './views';

const PREFIX = '/api/tenant/v1/webhooks';
const tenantIdOf = (c: RouterContext<RequestState>) => identityOf(c, 'tenant').tenantId;

/**
 * Tenant API (through the gateway with a tenant bearer token): an installation's deliveries and
 * their attempts, dead letters, redelivery and the test event. /healthz, /readyz and /metrics come
 * from the shared HTTP app.
 */
export function registerRoutes(router: Router<RequestState>, ctx: WebhookContext): void {
  router.get(`${PREFIX}/openapi.json`, (c) => {
    c.body = tenantWebhooksApiDocument;
  });
  router.get(`${PREFIX}/installations/:installationId/deliveries`, async (c) => {
    const options = listQuery(c.query);
    const deliveries = await listDeliveries(ctx, tenantIdOf(c), pathId(c.params.installationId), options);
    c.body = deliveries.map((d) => deliveryView(d, false));
  });
  router.post(`${PREFIX}/installations/:installationId/test`, async (c) => {
    const tenantId = tenantIdOf(c);
    c.status = 202;
    c.body = deliveryView(await sendTestEvent(ctx, tenantId, pathId(c.params.installationId)), true);
  });
  router.get(`${PREFIX}/deliveries/:deliveryId`, async (c) => {
    c.body = deliveryView(await getDelivery(ctx, tenantIdOf(c), pathId(c.params.deliveryId)), true);
  });
  router.post(`${PREFIX}/deliveries/:deliveryId/redeliver`, async (c) => {
    const tenantId = tenantIdOf(c);
    c.status = 202;
    c.body = deliveryView(await redeliver(ctx, tenantId, pathId(c.params.deliveryId)), false);
  });
}
