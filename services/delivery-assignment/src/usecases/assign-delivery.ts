import { AppError, notFound } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import type { Assignment } from '../domain/delivery';
import { pickupOfBranch } from '../domain/pickup';
import { dispatchIneligibility } from '../domain/dispatch/connection';
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

  await checkInstallation(ctx, tenant, installationId);

  const pickup = pickupOfBranch(await ctx.store.branches.find(tenant, delivery.order.branchId));
  const assignmentId = ctx.newId();
  const decision = await changeDelivery<{ subject: Assignment }>(ctx, tenant, orderId, (current, now) =>
    assign(current!, { installationId, assignmentId, pickup }, now),
  );
  return 'unchanged' in decision
    ? { assignment: decision.unchanged, created: false }
    : { assignment: decision.subject, created: true };
}

/**
 * Refuses (422) an installation that cannot take the delivery: a partner's installation (the
 * installations copy) must be connected, hold Delivery.Accept and be notifiable; a provider
 * connection's installation (the platform operates it) must have its core enabled.
 */
async function checkInstallation(ctx: DeliveryContext, tenant: TenantOwner, installationId: string): Promise<void> {
  const installation = await ctx.store.installations.find(tenant, installationId);
  if (installation) {
    const refusal = assignIneligibility(installation);
    if (refusal) throw ineligible(refusal.code, refusal.message);
    return;
  }
  const operated = await ctx.store.connectionInstallations.find(tenant, installationId);
  const connection = operated && (await ctx.store.connections.find(tenant, operated.connectionId));
  if (!connection) throw ineligible('delivery.installation_unknown', 'The tenant has no installation with this id.');
  const blocked = dispatchIneligibility(connection);
  if (blocked) throw ineligible(blocked.code, blocked.message);
}
