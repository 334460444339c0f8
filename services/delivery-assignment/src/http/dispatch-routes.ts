import { identityOf } from '@marketplace/identity';
import { pathId, type RouteTable } from '@marketplace/http';
import type { DeliveryContext } from '../usecases/context';
import { readDispatches } from '../usecases/dispatch/read-dispatches';
import { dispatchView } from './views/connections';

const PREFIX = '/api/tenant/v1/deliveries';

/** Tenant API: an order's dispatches to provider connections, with the state's age and the log. */
export function registerDispatchRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  routes.get(`${PREFIX}/:orderId/dispatch`, 'tenant', async (c) => {
    const tenant = { tenantId: identityOf(c, 'tenant').tenantId };
    const { dispatches, now } = await readDispatches(ctx, tenant, pathId(c.params.orderId));
    c.body = dispatches.map(({ dispatch, connection }) => dispatchView(dispatch, connection, now));
  });
}
