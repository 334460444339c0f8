import { providerCallbacksAdminApiDocument } from '@marketplace/contracts';
import { pathId, type RouteTable } from '@marketplace/http';
import type { WebhookContext } from '../usecases/context';
import { getProviderCallback } from '../usecases/get-provider-callback';
import { listProviderCallbacks } from '../usecases/list-provider-callbacks';
import { redeliverProviderCallback } from '../usecases/redeliver-provider-callback';
import { listQuery } from './list-query';
import { providerCallbackView } from './views';

const P = '/admin/v1/provider-callbacks';

/**
 * The administrator API of provider callbacks, for provider-delivery's operators (the admin guard
 * checks their token before any of these runs): an account's callbacks with their attempts, one
 * with the body sent, and redelivery, as the tenant API does for partner webhooks.
 */
export function registerAdminRoutes(routes: RouteTable, ctx: WebhookContext): void {
  // Before `/:deliveryId`, which would otherwise take `openapi.json` for an id (and answer 404).
  routes.get(`${P}/openapi.json`, 'admin', (c) => {
    c.body = providerCallbacksAdminApiDocument;
  });
  routes.get(P, 'admin', async (c) => {
    const { accountId, ...options } = listQuery(c.query, {
      required: ['accountId'],
      optional: ['providerDeliveryId'],
    });
    const callbacks = await listProviderCallbacks(ctx, accountId!, options);
    c.body = callbacks.map((record) => providerCallbackView(record, false));
  });
  routes.get(`${P}/:deliveryId`, 'admin', async (c) => {
    c.body = providerCallbackView(await getProviderCallback(ctx, pathId(c.params.deliveryId)), true);
  });
  routes.post(`${P}/:deliveryId/redeliver`, 'admin', async (c) => {
    const record = await redeliverProviderCallback(ctx, pathId(c.params.deliveryId));
    c.status = 202;
    c.body = providerCallbackView(record, false);
  });
}
