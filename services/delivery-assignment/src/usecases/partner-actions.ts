import { DELIVERY_LIMITS, type DeliveryAssignmentResponse } from '@marketplace/contracts';
import { validationError } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import type { Delivery } from '../domain/delivery';
import { partnerRequestId, replay, storedRequest, withRequest } from '../domain/partner-requests';
import {
  moveStatus,
  partnerAction,
  updateDetails,
  type DeliveryChange,
  type DetailsUpdate,
  type PartnerAction,
} from '../domain/rules';
import { assignmentResponse } from '../domain/assignment-response';
import { changeDelivery } from './change-delivery';
import { tenantOf, type DeliveryContext } from './context';

/**
 * Partner API endpoints 7 to 13: each resolves the caller's installation from the signed identity
 * (never from the request) and answers the assignment acted on, in its state after the action.
 * A repeat of a request that succeeded (same installation, Idempotency-Key and request) answers
 * the first answer again without acting; the same key with another request is 409
 * `idempotency.key_reused` (domain/partner-requests.ts). The gateway does this too, but it stores
 * nothing when the answer never reached it (a 504): this is what the retry then meets.
 */
async function act(
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
    tenantOf(caller),
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

/** What the route hands over of the request beyond the caller: its fingerprint (method, path, body). */
export interface PartnerRequestInput {
  fingerprint: string;
}

export const actAsPartner = (
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  request: PartnerRequestInput,
  orderId: string,
  action: PartnerAction,
) => act(ctx, caller, request, orderId, (delivery, now) => partnerAction(delivery, caller.installationId, action, now));

export const moveAsPartner = (
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  request: PartnerRequestInput,
  orderId: string,
  target: 4 | 5,
) => act(ctx, caller, request, orderId, (delivery, now) => moveStatus(delivery, caller.installationId, target, now));

export const updateAsPartner = (
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  request: PartnerRequestInput,
  orderId: string,
  /** The update, given the time it is decided at (the ETA's limits depend on it). */
  update: (now: Date) => DetailsUpdate,
) =>
  act(ctx, caller, request, orderId, (delivery, now) =>
    updateDetails(delivery, caller.installationId, update(now), now),
  );

/**
 * The ETA's limits beyond its format: a little in the past is a late report (clock skew, a slow
 * network) and is kept as sent; further back, or more than a week ahead, is a mistake: 400.
 */
export function checkEta(eta: Date | null, now: Date): Date | null {
  if (eta === null) return null;
  const earliest = now.getTime() - DELIVERY_LIMITS.etaPastToleranceSeconds * 1000;
  const latest = now.getTime() + DELIVERY_LIMITS.etaMaxAheadDays * 86_400_000;
  if (eta.getTime() < earliest)
    throw validationError('request.invalid', 'The request body is invalid.', {
      etaUtc: [`must not be more than ${DELIVERY_LIMITS.etaPastToleranceSeconds / 60} minutes in the past`],
    });
  if (eta.getTime() > latest)
    throw validationError('request.invalid', 'The request body is invalid.', {
      etaUtc: [`must not be more than ${DELIVERY_LIMITS.etaMaxAheadDays} days ahead`],
    });
  return eta;
}
