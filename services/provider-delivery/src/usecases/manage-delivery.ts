import type {
  ProviderCancelResponse,
  ProviderReturnResponse,
  ProviderUpdateDeliveryRequest,
  ProviderUpdateDeliveryResponse,
} from '@marketplace/contracts';
import { AppError } from '@marketplace/errors';
import { cancelOutcome, returnOutcome, type CancelStage } from '../domain/lifecycle';
import type { Capabilities, PlatformAccount } from '../domain/platform-account';
import { planUpdate, updateFieldErrors } from '../domain/update-rules';
import { changeDelivery, readDelivery } from './change-delivery';
import type { ProviderContext } from './context';
import { invalidFields } from './create-delivery';

const CAPABILITY_NAMES: Partial<Record<keyof Capabilities, string>> = {
  supportsUpdates: 'updates',
  supportsCancellation: 'cancellation',
  supportsReturnToOrigin: 'return to origin (supportsReturnToOrigin)',
};

/** 403 `auth.forbidden` when the account's capabilities do not include the endpoint's. */
function requireCapability(account: PlatformAccount, capability: keyof Capabilities): void {
  if (!account.capabilities[capability])
    throw new AppError(
      'forbidden',
      'auth.forbidden',
      `The ${CAPABILITY_NAMES[capability] ?? capability} capability is not enabled for this account.`,
    );
}

/**
 * What PATCH, cancel and return check before the body, in this order: the delivery is the
 * account's (404 `delivery.not_found` for an unknown one and another account's alike), then the
 * account has the endpoint's capability (403 `auth.forbidden`). So a request naming no delivery
 * of the account is 404 whatever its body and the account's capabilities; its body's fields (422)
 * are checked after this. Requests are never deleted, so the delivery found here is still there
 * when the change reads it again.
 */
export async function admitChange(
  ctx: ProviderContext,
  account: PlatformAccount,
  providerDeliveryId: string,
  capability: keyof Capabilities,
): Promise<void> {
  await readDelivery(ctx, { accountId: account.id }, providerDeliveryId);
  requireCapability(account, capability);
}

/** PATCH /deliveries/{id}: the fields the status allows change; one answer per field sent. */
export async function updateDelivery(
  ctx: ProviderContext,
  account: PlatformAccount,
  providerDeliveryId: string,
  request: ProviderUpdateDeliveryRequest,
): Promise<ProviderUpdateDeliveryResponse> {
  requireCapability(account, 'supportsUpdates');
  const errors = updateFieldErrors(request);
  if (Object.keys(errors).length > 0) throw invalidFields(errors);
  return changeDelivery(ctx, { accountId: account.id }, providerDeliveryId, (delivery) => {
    const plan = planUpdate(account, delivery.status, request);
    const answer = {
      fieldAccepted: plan.fieldAccepted,
      errorMessage: plan.reasons.length > 0 ? `Not changed: ${plan.reasons.join('; ')}.` : null,
    };
    if (Object.keys(plan.changes).length === 0) return { answer };
    return { changes: { order: { ...delivery.order, ...plan.changes } }, answer };
  });
}

/** POST /deliveries/{id}/cancel: the outcome of lifecycle.ts `cancelOutcome` for the status. */
export async function cancelDelivery(
  ctx: ProviderContext,
  account: PlatformAccount,
  providerDeliveryId: string,
  stage: CancelStage,
): Promise<ProviderCancelResponse> {
  requireCapability(account, 'supportsCancellation');
  return changeDelivery(ctx, { accountId: account.id }, providerDeliveryId, (delivery, now) => {
    const outcome = cancelOutcome(delivery.status, stage);
    const answer = { confirmed: outcome.confirmed, errorMessage: outcome.errorMessage };
    if (outcome.to === null) return { answer };
    return {
      changes: { status: 'cancelled', statusEventTimeUtc: now },
      events: ['delivery.cancelled'],
      answer,
    };
  });
}

/** POST /deliveries/{id}/return: the outcome of lifecycle.ts `returnOutcome` (with supportsReturnToOrigin). */
export async function returnDelivery(
  ctx: ProviderContext,
  account: PlatformAccount,
  providerDeliveryId: string,
  reasonCode: string,
): Promise<ProviderReturnResponse> {
  requireCapability(account, 'supportsReturnToOrigin');
  return changeDelivery(ctx, { accountId: account.id }, providerDeliveryId, (delivery, now) => {
    const outcome = returnOutcome(delivery.status);
    const answer = { accepted: outcome.accepted, errorMessage: outcome.errorMessage };
    if (outcome.to === null) return { answer };
    return {
      changes: { status: 'return_requested', statusEventTimeUtc: now, returnReasonCode: reasonCode },
      events: ['delivery.return_requested'],
      answer,
    };
  });
}
