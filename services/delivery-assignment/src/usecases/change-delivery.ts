import { busy, notFound } from '@marketplace/errors';
import type { TenantOwner } from '@marketplace/store';
import type { Delivery } from '../domain/delivery';
import { deliveryEvents } from '../domain/delivery-events';
import { assignmentTransitions } from '../domain/transitions';
import type { DeliveryEventSpec, NoChange } from '../domain/rules';
import type { DeliveryContext } from './context';

/** A decision on a delivery: what it becomes and the events to publish (with R), or nothing to write (with U). */
export type Decision<R, U = NoChange['unchanged']> =
  ({ next: Delivery; events: DeliveryEventSpec[] } & R) | { unchanged: U };

/** Compare-and-set attempts before answering 503 `resource.busy` (each loses only to a write that landed). */
const ATTEMPTS = 8;

/**
 * Applies one decision to an order's delivery: read, decide, write if nothing changed meanwhile
 * (compare-and-set on `version`), else read and decide again. So the actions on one order are
 * serialized: of an accept and a reject racing, one applies and the other is decided on the
 * result (a 409, or a 404 once the assignment ended); a reassignment racing an accept ends with
 * either the accept (the reassignment then is a 409) or the new assignment (the accept a 404).
 * The events go into the same write (outbox) and are published right after.
 */
export async function changeDelivery<R, U = NoChange['unchanged']>(
  ctx: DeliveryContext,
  owner: TenantOwner,
  orderId: string,
  decide: (delivery: Delivery | undefined, now: Date) => Decision<R, U>,
): Promise<Decision<R, U>> {
  let remembered = ctx.recent.get(owner.tenantId, orderId);
  let lostRaces = 0;
  while (lostRaces < ATTEMPTS) {
    const now = ctx.now();
    let current: Delivery | undefined;
    let decision: Decision<R, U>;
    if (remembered) {
      // An answer without a write (a refusal, or nothing to change) stands only on the database's
      // copy: the remembered one may be old. A write checks itself (compare-and-set).
      const onRemembered = decidedOrRefused(() => decide(remembered, now));
      if (!onRemembered || 'unchanged' in onRemembered) {
        remembered = undefined;
        continue;
      }
      [current, decision] = [remembered, onRemembered];
    } else {
      current = await ctx.store.deliveries.findByOrder(owner, orderId);
      decision = decide(current, now);
      if ('unchanged' in decision) return decision;
    }
    if (!current) throw notFound(); // decisions change stored deliveries only
    const { events, eventRevision } = deliveryEvents(decision.next, decision.events, now);
    const next: Delivery = { ...decision.next, version: current.version + 1, eventRevision, updatedAt: now };
    if (await ctx.store.deliveries.replaceIfUnchanged(owner, next, events, now)) {
      ctx.recent.remember(next);
      for (const transition of assignmentTransitions(current, next)) ctx.metrics.transitioned(transition);
      if (events.length > 0) await ctx.events.publish(orderId);
      return { ...decision, next };
    }
    ctx.recent.forget(orderId);
    if (remembered) {
      remembered = undefined; // the remembered copy was old: not a lost race, read and go again
      continue;
    }
    // Another change of this order landed between the read and the write: decide again on it.
    lostRaces++;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * lostRaces));
  }
  throw busy('The delivery is being changed by other requests; try again.');
}

/** The decision, or undefined where the rule refused (to be decided again on the database's copy). */
function decidedOrRefused<T>(decide: () => T): T | undefined {
  try {
    return decide();
  } catch {
    return undefined;
  }
}
