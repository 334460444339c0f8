import { identityOf } from '@marketplace/identity';
import { pathId, requestBody, type RouteTable } from '@marketplace/http';
import { tenantScope, type OrderingContext } from '../usecases/context';
import { createOrder } from '../usecases/create-order';
import { cancelBySource } from '../usecases/order-actions';
import { readOrderAsPartner } from '../usecases/order-reads';
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
