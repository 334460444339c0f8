import { DELIVERY_LIMITS } from '@marketplace/contracts';
import { validationError } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import type { Assignment } from '../domain/delivery';
import { moveStatus, partnerAction, updateDetails, type DetailsUpdate, type PartnerAction } from '../domain/rules';
import { changeDelivery } from './change-delivery';
import { tenantOf, type DeliveryContext } from './context';

/**
 * Partner API endpoints 7 to 13: each resolves the caller's installation from the signed identity
 * (never from the request) and answers the assignment acted on, in its state after the action.
 */
async function act(
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  orderId: string,
  decide: Parameters<typeof changeDelivery<{ subject: Assignment }>>[3],
): Promise<Assignment> {
  const decision = await changeDelivery(ctx, tenantOf(caller), orderId, decide);
  return 'unchanged' in decision ? decision.unchanged : decision.subject;
}

export const actAsPartner = (ctx: DeliveryContext, caller: PartnerIdentity, orderId: string, action: PartnerAction) =>
  act(ctx, caller, orderId, (delivery, now) => partnerAction(delivery, caller.installationId, action, now));

export const moveAsPartner = (ctx: DeliveryContext, caller: PartnerIdentity, orderId: string, target: 4 | 5) =>
  act(ctx, caller, orderId, (delivery, now) => moveStatus(delivery, caller.installationId, target, now));

export const updateAsPartner = (
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  orderId: string,
  update: DetailsUpdate,
) => act(ctx, caller, orderId, (delivery, now) => updateDetails(delivery, caller.installationId, update, now));

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
