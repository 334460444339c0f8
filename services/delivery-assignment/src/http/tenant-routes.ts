import { tenantDeliveriesApiDocument } from '@marketplace/contracts';
import { identityOf, type TenantIdentity } from '@marketplace/identity';
import { pathId, requestBody, type RouteTable } from '@marketplace/http';
import { assignDelivery } from '../usecases/assign-delivery';
import type { DeliveryContext } from '../usecases/context';
import { readDelivery } from '../usecases/read-delivery';
import { validateAssign } from './schemas';
import { tenantAssignmentView, tenantDeliveryView } from './views/assignments';

const PREFIX = '/api/tenant/v1/deliveries';

/** The owner a request acts for: the tenant of the signed identity. */
const tenantOf = (identity: TenantIdentity) => ({ tenantId: identity.tenantId });

/** Tenant API: assign or reassign an order's delivery, and read it (the gateway forwards `/deliveries`). */
export function registerTenantRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  routes.get(`${PREFIX}/openapi.json`, 'tenant', (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = tenantDeliveriesApiDocument;
  });
  routes.post(`${PREFIX}/:orderId/assign`, 'tenant', async (c) => {
    const tenant = tenantOf(identityOf(c, 'tenant'));
    const orderId = pathId(c.params.orderId);
    const installationId = validateAssign(requestBody(c)).installationId.toLowerCase();
    const { assignment, created } = await assignDelivery(ctx, tenant, orderId, installationId);
    c.status = created ? 201 : 200;
    c.body = tenantAssignmentView(orderId, assignment);
  });
  routes.get(`${PREFIX}/:orderId`, 'tenant', async (c) => {
    const tenant = tenantOf(identityOf(c, 'tenant'));
    c.body = tenantDeliveryView(await readDelivery(ctx, tenant, pathId(c.params.orderId)));
  });
}
