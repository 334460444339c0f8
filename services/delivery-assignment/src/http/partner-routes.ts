import type { RouterContext } from '@koa/router';
import { identityOf } from '@marketplace/identity';
import { pathId, requestBody, type RequestState, type RouteTable } from '@marketplace/http';
import type { Assignment } from '../domain/delivery';
import type { DeliveryContext } from '../usecases/context';
import { actAsPartner, checkEta, moveAsPartner, updateAsPartner } from '../usecases/partner-actions';
import { validateDriverUpdate, validateEtaUpdate, validateStatusUpdate, validateTrackingUpdate } from './schemas';
import { assignmentView } from './views/assignments';

const PREFIX = '/api/partner/v1/deliveries/:orderId';
type Ctx = RouterContext<RequestState>;

/**
 * Partner API endpoints 7 to 13 (the gateway checked the key, the scope and the Idempotency-Key,
 * and replays a repeated key itself). Each answers the assignment acted on.
 */
export function registerPartnerRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  const answer = async (c: Ctx, run: (orderId: string) => Promise<Assignment>) => {
    const orderId = pathId(c.params.orderId);
    c.body = assignmentView(orderId, await run(orderId));
  };
  for (const action of ['accept', 'reject', 'cancel'] as const) {
    routes.post(`${PREFIX}/${action}`, 'partner', (c) =>
      answer(c, (orderId) => actAsPartner(ctx, identityOf(c, 'partner'), orderId, action)),
    );
  }
  routes.patch(`${PREFIX}/status`, 'partner', (c) => {
    const { targetStatus } = validateStatusUpdate(requestBody(c));
    return answer(c, (orderId) => moveAsPartner(ctx, identityOf(c, 'partner'), orderId, targetStatus));
  });
  routes.patch(`${PREFIX}/driver`, 'partner', (c) => {
    const { driverName, driverPhone } = validateDriverUpdate(requestBody(c));
    return answer(c, (orderId) =>
      updateAsPartner(ctx, identityOf(c, 'partner'), orderId, {
        driverName: driverName?.trim() ?? null,
        driverPhone: driverPhone ?? null,
      }),
    );
  });
  routes.patch(`${PREFIX}/eta`, 'partner', (c) => {
    const { etaUtc } = validateEtaUpdate(requestBody(c));
    const eta = checkEta(etaUtc === null ? null : new Date(etaUtc), ctx.now());
    return answer(c, (orderId) => updateAsPartner(ctx, identityOf(c, 'partner'), orderId, { eta }));
  });
  routes.patch(`${PREFIX}/tracking`, 'partner', (c) => {
    const { trackingUrl } = validateTrackingUpdate(requestBody(c));
    return answer(c, (orderId) => updateAsPartner(ctx, identityOf(c, 'partner'), orderId, { trackingUrl }));
  });
}
