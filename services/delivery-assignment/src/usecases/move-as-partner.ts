import type { DeliveryAssignmentResponse } from '@marketplace/contracts';
import type { PartnerIdentity } from '@marketplace/identity';
import { moveStatus } from '../domain/rules';
import { answerPartnerRequest, type PartnerRequestInput } from './answer-partner-request';
import type { DeliveryContext } from './context';

/** The provider moves its accepted assignment on: picked up (4) or delivered (5). */
export async function moveAsPartner(
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  request: PartnerRequestInput,
  orderId: string,
  target: 4 | 5,
): Promise<DeliveryAssignmentResponse> {
  return answerPartnerRequest(ctx, caller, request, orderId, (delivery, now) =>
    moveStatus(delivery, caller.installationId, target, now),
  );
}
