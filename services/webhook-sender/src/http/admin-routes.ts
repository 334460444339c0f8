import type Router from '@koa/router';
import { providerCallbacksAdminApiDocument } from '@marketplace/contracts';
import { pathId, type RequestState } from '@marketplace/http';
import type { WebhookContext } from '../usecases/context';
import {
  getProviderCallback,
  listProviderCallbacks,
  redeliverProviderCallback,
} from '../usecases/manage-provider-callbacks';
import { listQuery } from './list-query';
import { providerCallbackView } from './views';

const P = '/admin/v1/provider-callbacks';

/**
 * The administrator API of provider callbacks, for provider-delivery's operators (guardAdminRoutes
 * checks their token before any of these runs): an account's callbacks with their attempts, one
 * with the body sent, and redelivery, as the tenant API does for partner webhooks.
 */
export function registerAdminRoutes(router: Router<RequestState>, ctx: WebhookContext): void {
  // Before `/:deliveryId`, which would otherwise take `openapi.json` for an id (and answer 404).
  router.get(`${P}/openapi.json`, (c) => {
    c.body = providerCallbacksAdminApiDocument;
  });
  router.get(P, async (c) => {
    const { accountId, ...options } = listQuery(c.query, {
      required: ['accountId'],
      optional: ['providerDeliveryId'],
    });
    const callbacks = await listProviderCallbacks(ctx, accountId!, options);
    c.body = callbacks.map((record) => providerCallbackView(record, false));
  });
  router.get(`${P}/:deliveryId`, async (c) => {
    c.body = providerCallbackView(await getProviderCallback(ctx, pathId(c.params.deliveryId)), true);
  });
  router.post(`${P}/:deliveryId/redeliver`, async (c) => {
    const record = await redeliverProviderCallback(ctx, pathId(c.params.deliveryId));
    c.status = 202;
    c.body = providerCallbackView(record, false);
  });
}
