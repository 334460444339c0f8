import type Router from '@koa/router';
import { providerApiDocument } from '@marketplace/contracts';
import { isUuid, type RequestState } from '@marketplace/http';
import type { ProviderContext } from '../usecases/context';
import { deliveryNotFound, readDeliveryStatus } from '../usecases/delivery-status';
import { platformAccountOf } from './auth';
import { statusView } from './views';

/**
 * The provider contract's API under `/v1` (guardRoutes has found the caller's account). Only the
 * status read is served so far; the other endpoints arrive with their issues.
 */
export function registerPlatformRoutes(router: Router<RequestState>, ctx: ProviderContext): void {
  router.get('/v1/openapi.json', (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = providerApiDocument;
  });
  router.get('/v1/deliveries/:providerDeliveryId/status', async (c) => {
    const account = platformAccountOf(c);
    const id = c.params.providerDeliveryId ?? '';
    // Our ids are uuids: anything else names no delivery (the same 404 as an unknown one).
    if (!isUuid(id)) throw deliveryNotFound();
    c.body = statusView(await readDeliveryStatus(ctx, { accountId: account.id }, id.toLowerCase()));
  });
}
