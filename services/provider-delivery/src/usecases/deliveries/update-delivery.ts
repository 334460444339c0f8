import type { ProviderUpdateDeliveryRequest, ProviderUpdateDeliveryResponse } from '@marketplace/contracts';
import { invalidFields, requireCapability } from '../../domain/errors';
import type { PlatformAccount } from '../../domain/platform-account';
import { planUpdate, updateFieldErrors } from '../../domain/update-rules';
import type { ProviderContext } from '../context';
import { changeDelivery } from './change-delivery';

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
