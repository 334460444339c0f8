import type { DeliveryAssignmentResponse } from '@marketplace/contracts';
import type { PartnerIdentity } from '@marketplace/identity';
import { updateDetails, type DetailsUpdate } from '../domain/rules';
import { answerPartnerRequest, type PartnerRequestInput } from './answer-partner-request';
import type { DeliveryContext } from './context';

/** The provider updates its assignment's details: the driver, the ETA or the tracking link. */
export async function updateAsPartner(
  ctx: DeliveryContext,
  caller: PartnerIdentity,
  request: PartnerRequestInput,
  orderId: string,
  /** The update, given the time it is decided at (the ETA's limits depend on it). */
  update: (now: Date) => DetailsUpdate,
): Promise<DeliveryAssignmentResponse> {
  return answerPartnerRequest(ctx, caller, request, orderId, (delivery, now) =>
    updateDetails(delivery, caller.installationId, update(now), now),
  );
}
