import type { RouterContext } from '@koa/router';
import type { DeliveryAssignmentResponse } from '@marketplace/contracts';
import { HELD_ASSIGNMENT_PATTERN, identityOf, type HeldAssignment } from '@marketplace/identity';
import { pathId, requestBody, requestFingerprint, type RequestState, type RouteTable } from '@marketplace/http';
import type { DeliveryContext } from '../usecases/context';
import { checkEta } from '../domain/eta';
import { actAsPartner } from '../usecases/act-as-partner';
import type { PartnerRequestInput } from '../usecases/answer-partner-request';
import { findHeldAssignment } from '../usecases/find-held-assignment';
import { moveAsPartner } from '../usecases/move-as-partner';
import { updateAsPartner } from '../usecases/update-as-partner';
import { validateDriverUpdate, validateEtaUpdate, validateStatusUpdate, validateTrackingUpdate } from './schemas';

const PREFIX = '/api/partner/v1/deliveries/:orderId';
type Ctx = RouterContext<RequestState>;

/**
 * Partner API endpoints 7 to 13 (the gateway checked the key, the scope and the Idempotency-Key,
 * and replays a repeated key itself; this service replays one whose answer the gateway never got,
 * see usecases/answer-partner-request.ts). Each answers the assignment acted on.
 */
export function registerPartnerRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  const answer = async (
    c: Ctx,
    run: (orderId: string, request: PartnerRequestInput) => Promise<DeliveryAssignmentResponse>,
  ) => {
    // The request as the gateway compares it: method, path and the parsed body.
    const request = { fingerprint: requestFingerprint(c.method, c.path, requestBody(c)) };
    c.body = await run(pathId(c.params.orderId), request);
  };
  for (const action of ['accept', 'reject', 'cancel'] as const) {
    routes.post(`${PREFIX}/${action}`, 'partner', (c) =>
      answer(c, (orderId, request) => actAsPartner(ctx, identityOf(c, 'partner'), request, orderId, action)),
    );
  }
  routes.patch(`${PREFIX}/status`, 'partner', (c) => {
    const { targetStatus } = validateStatusUpdate(requestBody(c));
    return answer(c, (orderId, request) =>
      moveAsPartner(ctx, identityOf(c, 'partner'), request, orderId, targetStatus),
    );
  });
  routes.patch(`${PREFIX}/driver`, 'partner', (c) => {
    const { driverName, driverPhone } = validateDriverUpdate(requestBody(c));
    return answer(c, (orderId, request) =>
      updateAsPartner(ctx, identityOf(c, 'partner'), request, orderId, () => ({
        driverName: driverName?.trim() ?? null,
        driverPhone: driverPhone ?? null,
      })),
    );
  });
  routes.patch(`${PREFIX}/eta`, 'partner', (c) => {
    const { etaUtc } = validateEtaUpdate(requestBody(c));
    const requested = etaUtc === null ? null : new Date(etaUtc);
    // Its time limits are checked when the change is decided: a repeat of a request that passed
    // them is answered as the first was, however late it comes.
    return answer(c, (orderId, request) =>
      updateAsPartner(ctx, identityOf(c, 'partner'), request, orderId, (now) => ({ eta: checkEta(requested, now) })),
    );
  });
  // Not a Partner API endpoint: the gateway asks it before it forwards a delivery provider's order
  // read to ordering (@marketplace/identity's held-assignment.ts), with the caller's identity
  // signed for this path and service like any forwarded request.
  routes.get(HELD_ASSIGNMENT_PATTERN, 'partner', async (c) => {
    const orderId = pathId(c.params.orderId);
    const live = await findHeldAssignment(ctx, identityOf(c, 'partner'), orderId);
    const { branchId, name, address, latitude, longitude, externalLocationId } = live.pickup;
    const body: HeldAssignment = {
      orderId,
      assignmentId: live.assignmentId,
      pickup: { branchId, name, address, latitude, longitude, externalLocationId },
    };
    c.body = body;
  });
  routes.patch(`${PREFIX}/tracking`, 'partner', (c) => {
    const { trackingUrl } = validateTrackingUpdate(requestBody(c));
    return answer(c, (orderId, request) =>
      updateAsPartner(ctx, identityOf(c, 'partner'), request, orderId, () => ({ trackingUrl })),
    );
  });
}
