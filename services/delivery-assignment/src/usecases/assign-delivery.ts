import { AppError, notFound } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import type { BranchCopyDoc } from '../adapters/branch-copies-repository';
import type { Assignment, Pickup } from '../domain/delivery';
import { assignIneligibility } from '../domain/installation';
import { assign } from '../domain/rules';
import { changeDelivery } from './change-delivery';
import type { DeliveryContext } from './context';

const ineligible = (code: string, message: string) => new AppError('unprocessable', code, message);

/**
 * The tenant assigns (or reassigns) an order's delivery to one of its installations. Decided on
 * copies of other services' data, so first wait until the copies hold everything published before
 * the request: an order created, or an installation connected, a moment ago is seen.
 * `created` is false when the installation already held the live assignment (nothing changed).
 */
export async function assignDelivery(
  ctx: DeliveryContext,
  tenant: TenantOwner,
  orderId: string,
  installationId: string,
): Promise<{ assignment: Assignment; created: boolean }> {
  await ctx.copiesCaughtUp(ctx.now());
  const delivery = await ctx.store.deliveries.findByOrder(tenant, orderId);
  if (!delivery) throw notFound();

  const installation = await ctx.store.installations.find(tenant, installationId);
  if (!installation) throw ineligible('delivery.installation_unknown', 'The tenant has no installation with this id.');
  const refusal = assignIneligibility(installation);
  if (refusal) throw ineligible(refusal.code, refusal.message);

  const pickup = pickupOf(await ctx.store.branches.find(tenant, delivery.order.branchId));
  const assignmentId = ctx.newId();
  const decision = await changeDelivery<{ subject: Assignment }>(ctx, tenant, orderId, (current, now) =>
    assign(current!, { installationId, assignmentId, pickup }, now),
  );
  return 'unchanged' in decision
    ? { assignment: decision.unchanged, created: false }
    : { assignment: decision.subject, created: true };
}

/** The branch's snapshot for the assignment, or why it cannot be a pickup. */
function pickupOf(branch: BranchCopyDoc | undefined): Pickup | string {
  if (!branch || branch.deleted) return 'the branch no longer exists';
  if (branch.latitude === null || branch.longitude === null) return 'the branch has no coordinates';
  if (branch.address === '') return 'the branch has no address';
  return {
    branchId: branch._id,
    name: branch.name,
    address: branch.address,
    latitude: branch.latitude,
    longitude: branch.longitude,
    externalLocationId: branch.externalLocationId,
  };
}
