import { AppError, notFound } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import type { Assignment, Pickup } from '../../domain/delivery';
import { pickCandidate, type DispatchPlan } from '../../domain/dispatch/dispatch-plan';
import { assign } from '../../domain/rules';
import { pickupOfBranch } from '../../domain/pickup';
import { changeDelivery } from '../change-delivery';
import type { DeliveryContext } from '../context';
import { candidateEligibility } from './candidate-eligibility';

const cannotDispatch = (code: string, message: string) => new AppError('unprocessable', code, message);

/**
 * The tenant dispatches an order by its rules: the first of its ranked connections that can take
 * the delivery gets it (an assignment, as `assign` makes one: the same answers for the order's
 * state), those passed over are logged with why, and the plan is kept on the order for a rescue
 * (within the rules' window) and for the dispatch log. 422 `dispatch.no_rules` before the tenant
 * set rules; 422 `dispatch.no_connection_available` when none of them can take it now.
 */
export async function dispatchByRules(
  ctx: DeliveryContext,
  tenant: TenantOwner,
  orderId: string,
): Promise<{ assignment: Assignment; created: boolean }> {
  await ctx.copiesCaughtUp(ctx.now());
  const delivery = await ctx.store.deliveries.findByOrder(tenant, orderId);
  if (!delivery) throw notFound();
  const rules = await ctx.store.dispatchRules.find(tenant);
  if (!rules)
    throw cannotDispatch(
      'dispatch.no_rules',
      'The tenant has set no dispatch rules (PUT /api/tenant/v1/dispatch-rules).',
    );
  const eligibility = await candidateEligibility(ctx, tenant, rules.connections);
  const now = ctx.now();
  const { chosen, skipped } = pickCandidate({ candidates: rules.connections, tried: [] }, eligibility, now);
  if (chosen === undefined)
    throw cannotDispatch(
      'dispatch.no_connection_available',
      `None of the tenant's dispatch connections can take the delivery now: ${skipped.map((s) => s.reason).join('; ')}.`,
    );
  const pickup: Pickup | string = pickupOfBranch(await ctx.store.branches.find(tenant, delivery.order.branchId));
  const plan: DispatchPlan = {
    candidates: rules.connections,
    tried: [chosen],
    rescue: {
      enabled: rules.rescue.enabled,
      until: rules.rescue.enabled ? new Date(now.getTime() + rules.rescue.withinMinutes * 60_000) : null,
    },
    log: [
      ...skipped,
      {
        at: now,
        installationId: chosen,
        decision: 'chosen',
        reason: `rank ${rules.connections.indexOf(chosen) + 1} of the dispatch rules`,
      },
    ],
  };
  const assignmentId = ctx.newId();
  const decision = await changeDelivery<{ subject: Assignment }>(ctx, tenant, orderId, (current, at) => {
    const change = assign(current!, { installationId: chosen, assignmentId, pickup }, at);
    return 'unchanged' in change ? change : { ...change, next: { ...change.next, dispatchPlan: plan } };
  });
  return 'unchanged' in decision
    ? { assignment: decision.unchanged, created: false }
    : { assignment: decision.subject, created: true };
}
