import type Router from '@koa/router';
import { identityOf } from '@marketplace/identity';
import { pathId, requestBody, type RequestState } from '@marketplace/http';
import { tenantScope, type OrderingContext } from '../usecases/context';
import { createOrder } from '../usecases/create-order';
import { cancelBySource } from '../usecases/order-actions';
import { readOrderAsPartner } from '../usecases/order-reads';
import { validateOrderRequest } from './schemas';

const PREFIX = '/api/partner/v1/orders';

/** Partner API endpoints 4 to 6 (the gateway checked the key, the scope and the Idempotency-Key). */
export function registerPartnerRoutes(router: Router<RequestState>, ctx: OrderingContext): void {
  router.post(PREFIX, async (c) => {
    const caller = identityOf(c, 'partner');
    const result = await createOrder(ctx, caller, tenantScope(caller), validateOrderRequest(requestBody(c)));
    c.status = result.status;
    c.set('Location', `${PREFIX}/${result.body.orderId}`);
    c.body = result.body;
  });
  router.get(`${PREFIX}/:orderId`, async (c) => {
    c.body = await readOrderAsPartner(ctx, identityOf(c, 'partner'), pathId(c.params.orderId));
  });
  router.post(`${PREFIX}/:orderId/cancel`, async (c) => {
    c.body = await cancelBySource(ctx, identityOf(c, 'partner'), pathId(c.params.orderId));
  });
}
