import type { DeliveryAssignmentResponse } from '@marketplace/contracts';
import type { PartnerIdentity } from '@marketplace/identity';
import { partnerAction, type PartnerAction } from '../domain/rules';
import { answerPartnerRequest, type PartnerRequestInput } from './answer-partner-request';
import type { DeliveryContext } from './context';

/** The provider accepts, rejects or cancels the assignment its installation holds. */
export async function actAsPartner(
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  request: PartnerRequestInput,
  orderId: string,
  action: PartnerAction,
): Promise<DeliveryAssignmentResponse> {
  return answerPartnerRequest(ctx, caller, request, orderId, (delivery, now) =>
    partnerAction(delivery, caller.installationId, action, now),
  );
}
