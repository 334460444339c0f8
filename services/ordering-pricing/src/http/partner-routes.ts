import { identityOf } from '@marketplace/identity';
import { pathId, requestBody, type RouteTable } from '@marketplace/http';
import { tenantScope } from '../domain/tenant-scope';
import type { OrderingContext } from '../usecases/context';
import { cancelBySource } from '../usecases/orders/cancel-by-source';
import { createOrder } from '../usecases/orders/create-order';
import { readOrderAsPartner } from '../usecases/orders/read-order-as-partner';
import { validateOrderRequest } from './schemas';
import { cancellationView, createdView, deliveryOrderView, orderView } from './views/orders';

const PREFIX = '/api/partner/v1/orders';

/** Partner API endpoints 4 to 6 (the gateway checked the key, the scope and the Idempotency-Key). */
export function registerPartnerRoutes(routes: RouteTable, ctx: OrderingContext): void {
  routes.post(PREFIX, 'partner', async (c) => {
    const caller = identityOf(c, 'partner');
    const order = await createOrder(ctx, caller, tenantScope(caller), validateOrderRequest(requestBody(c)));
    c.status = 201;
    c.set('Location', `${PREFIX}/${order._id}`);
    c.body = createdView(order);
  });
  routes.get(`${PREFIX}/:orderId`, 'partner', async (c) => {
    const read = await readOrderAsPartner(ctx, identityOf(c, 'partner'), pathId(c.params.orderId));
    c.body = read.read === 'source' ? orderView(read.order) : deliveryOrderView(read.order, read.pickup);
  });
  routes.post(`${PREFIX}/:orderId/cancel`, 'partner', async (c) => {
    c.body = cancellationView(await cancelBySource(ctx, identityOf(c, 'partner'), pathId(c.params.orderId)));
  });
}
