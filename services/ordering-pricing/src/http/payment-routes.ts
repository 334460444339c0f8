import { identityOf } from '@marketplace/identity';
import { requestBody, type RouteTable } from '@marketplace/http';
import { tenantScope } from '../domain/tenant-scope';
import type { OrderingContext } from '../usecases/context';
import { confirmPaymentByProcessor } from '../usecases/payments/confirm-payment-by-processor';
import { validateProcessorNotification } from './schemas';

/**
 * A tenant's payment processor confirming payments. The gateway takes the notification at
 * `/api/payments/v1/tenants/{tenantId}/notifications`, checks its signature with the tenant's
 * processor secret and forwards it here with a signed processor identity for that tenant.
 */
export function registerPaymentRoutes(routes: RouteTable, ctx: OrderingContext): void {
  routes.post('/api/payments/v1/notifications', 'processor', async (c) => {
    const identity = identityOf(c, 'processor');
    const answer = await confirmPaymentByProcessor(
      ctx,
      tenantScope(identity),
      validateProcessorNotification(requestBody(c)),
    );
    c.status = answer.status;
    c.body = answer.body;
  });
}
