import { AppError } from '@marketplace/errors';
import { heldAssignmentPath, type HeldAssignment, type PartnerIdentity } from '@marketplace/identity';
import type { Logger } from '@marketplace/logging';
import { forwardToOwner, type ForwardRouting } from './forward-to-owner';

/**
 * The order's live delivery assignment when the caller holds it now, as delivery-assignment (the
 * owner of assignments) answers at this moment; undefined when it holds none. Asked before a
 * delivery provider's order read goes to ordering, so the read agrees with the assignment's owner
 * at the time of the request by construction: readable the moment `delivery.assigned` arrives
 * (the webhook is sent only after the assignment was stored), not readable once it ended.
 *
 * Any answer but 200 or 404 leaves the question open: 503 with Retry-After, never a guess either way.
 */
export async function askHeldAssignment(
  routing: ForwardRouting,
  caller: PartnerIdentity,
  orderId: string,
  requestId: string,
  log: Logger,
): Promise<HeldAssignment | undefined> {
  const path = heldAssignmentPath(orderId);
  const response = await forwardToOwner(
    routing,
    'delivery',
    { method: 'GET', path, pathAndQuery: path, headers: { 'x-request-id': requestId, accept: 'application/json' } },
    caller,
    log,
  );
  if (response.status === 404) return undefined;
  const held = response.status === 200 ? parseHeld(response.body, orderId) : undefined;
  if (held) return held;
  log.warn({ status: response.status }, 'delivery-assignment did not say who holds the order: read answered 503');
  throw new AppError('unavailable', 'upstream.unavailable', 'The service is unavailable; try again shortly.', {
    retryAfterSeconds: 1,
  });
}

/** The answer when it is a HeldAssignment of this order, else undefined. */
function parseHeld(body: Buffer, orderId: string): HeldAssignment | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const held = value as Partial<HeldAssignment> | null;
  const pickup = held?.pickup;
  if (held?.orderId !== orderId || typeof held.assignmentId !== 'string' || !pickup) return undefined;
  const located = typeof pickup.latitude === 'number' && typeof pickup.longitude === 'number';
  const named = [pickup.branchId, pickup.name, pickup.address].every((v) => typeof v === 'string');
  if (!located || !named) return undefined;
  return {
    orderId,
    assignmentId: held.assignmentId,
    pickup: {
      branchId: pickup.branchId,
      name: pickup.name,
      address: pickup.address,
      latitude: pickup.latitude,
      longitude: pickup.longitude,
      externalLocationId: typeof pickup.externalLocationId === 'string' ? pickup.externalLocationId : null,
    },
  };
}
