import type { ProviderCancelResponse } from '@marketplace/contracts';
import { requireCapability } from '../../domain/errors';
import { cancelOutcome, type CancelStage } from '../../domain/lifecycle';
import type { PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { changeDelivery } from './change-delivery';

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
