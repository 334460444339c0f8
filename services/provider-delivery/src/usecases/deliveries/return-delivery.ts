import type { ProviderReturnResponse } from '@marketplace/contracts';
import { requireCapability } from '../../domain/errors';
import { returnOutcome } from '../../domain/lifecycle';
import type { PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { changeDelivery } from './change-delivery';

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
