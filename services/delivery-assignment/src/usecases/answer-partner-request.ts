import type { DeliveryAssignmentResponse } from '@marketplace/contracts';
import type { PartnerIdentity } from '@marketplace/identity';
import { assignmentResponse } from '../domain/assignment-response';
import type { Delivery } from '../domain/delivery';
import { partnerRequestId, replay, storedRequest, withRequest } from '../domain/partner-requests';
import type { DeliveryChange } from '../domain/rules';
import { changeDelivery } from './change-delivery';
import type { DeliveryContext } from './context';

/** What the route hands over of the request beyond the caller: its fingerprint (method, path, body). */
export interface PartnerRequestInput {
  fingerprint: string;
}

/**
 * Partner API endpoints 7 to 13, the step they share: each resolves the caller's installation from
 * the signed identity (never from the request) and answers the assignment acted on, in its state
 * after the action. A repeat of a request that succeeded (same installation, Idempotency-Key and
 * request) answers the first answer again without acting; the same key with another request is
 * 409 `idempotency.key_reused` (domain/partner-requests.ts). The gateway does this too, but it
 * stores nothing when the answer never reached it (a 504): this is what the retry then meets.
 */
export async function answerPartnerRequest(
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  request: PartnerRequestInput,
  orderId: string,
  decide: (delivery: Delivery | undefined, now: Date) => DeliveryChange,
): Promise<DeliveryAssignmentResponse> {
  // The gateway keys every POST and PATCH; a request without a key is acted on without a record.
  const id =
    caller.idempotencyKey === undefined ? undefined : partnerRequestId(caller.installationId, caller.idempotencyKey);
  const earlier = id && (await ctx.store.deliveries.findPartnerRequest(caller, id, ctx.now()));
  if (earlier) return replay(earlier, request.fingerprint);
  const decision = await changeDelivery<{ response: DeliveryAssignmentResponse }, DeliveryAssignmentResponse>(
    ctx,
    { tenantId: caller.tenantId },
    orderId,
    (delivery, now) => {
      // A repeat racing the first on this order: decided on the first one's write, a replay.
      const stored = id && storedRequest(delivery, id, now);
      if (stored) return { unchanged: replay(stored, request.fingerprint) };
      const change = decide(delivery, now);
      const response = assignmentResponse(orderId, change.subject);
      const expiresAt = new Date(now.getTime() + ctx.partnerRequestRetentionMs);
      const next = id
        ? withRequest(change.next, { id, fingerprint: request.fingerprint, response, createdAt: now, expiresAt }, now)
        : change.next;
      return { next, events: change.events, response };
    },
  );
  return 'unchanged' in decision ? decision.unchanged : decision.response;
}
