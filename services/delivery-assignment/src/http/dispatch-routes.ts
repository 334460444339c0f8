import { identityOf } from '@marketplace/identity';
import { pathId, requestBody, type RouteTable } from '@marketplace/http';
import type { DeliveryContext } from '../usecases/context';
import { dispatchByRules } from '../usecases/dispatch/dispatch-by-rules';
import { getDispatchRules } from '../usecases/dispatch/get-dispatch-rules';
import { readDispatches } from '../usecases/dispatch/read-dispatches';
import { setDispatchRules } from '../usecases/dispatch/set-dispatch-rules';
import { validateDispatchRules } from './schemas';
import { tenantAssignmentView } from './views/assignments';
import { deliveryDispatchView, dispatchRulesView } from './views/connections';

const PREFIX = '/api/tenant/v1/deliveries';
const RULES = '/api/tenant/v1/dispatch-rules';

/**
 * Tenant API: dispatch an order by the tenant's rules, read its dispatch (the plan, each dispatch
 * to a provider connection with its state's age and log), and the rules themselves (the gateway
 * forwards `/deliveries` and `/dispatch-rules`).
 */
export function registerDispatchRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  routes.post(`${PREFIX}/:orderId/dispatch`, 'tenant', async (c) => {
    const tenant = { tenantId: identityOf(c, 'tenant').tenantId };
    const orderId = pathId(c.params.orderId);
    const { assignment, created } = await dispatchByRules(ctx, tenant, orderId);
    c.status = created ? 201 : 200;
    c.body = tenantAssignmentView(orderId, assignment);
  });
  routes.get(`${PREFIX}/:orderId/dispatch`, 'tenant', async (c) => {
    const tenant = { tenantId: identityOf(c, 'tenant').tenantId };
    const orderId = pathId(c.params.orderId);
    c.body = deliveryDispatchView(orderId, await readDispatches(ctx, tenant, orderId));
  });
  routes.put(RULES, 'tenant', async (c) => {
    const tenant = { tenantId: identityOf(c, 'tenant').tenantId };
    c.body = dispatchRulesView(await setDispatchRules(ctx, tenant, validateDispatchRules(requestBody(c))));
  });
  routes.get(RULES, 'tenant', async (c) => {
    c.body = dispatchRulesView(await getDispatchRules(ctx, { tenantId: identityOf(c, 'tenant').tenantId }));
  });
}
