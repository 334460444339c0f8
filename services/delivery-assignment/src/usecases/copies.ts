import {
  branchAddressLine,
  type CatalogChange,
  type CatalogChangeDefinitions,
  type InstallationChanged,
  type OrderEvent,
} from '@marketplace/contracts';
import type { Delivery } from '../domain/delivery';
import { orderStatusChanged } from '../domain/rules';
import { changeDelivery } from './change-delivery';
import type { DeliveryContext } from './context';

/**
 * What this service keeps of other services' topics: an order's facts on its delivery (orders),
 * the installations that may be assigned (installations), the branches a pickup is snapshotted
 * from (catalog). Each handler is idempotent by itself (an insert under the order id, a status
 * that is already held, a revision or sequence not newer), so repeats change nothing.
 */

/** orders.created stores the order's delivery; a later status may end its live assignment. */
export async function applyOrderEvent(
  ctx: DeliveryContext,
  type: 'orders.created' | 'orders.status-changed' | 'orders.cancelled' | 'payment.completed',
  order: OrderEvent,
): Promise<void> {
  const tenant = { tenantId: order.tenantId };
  if (type === 'orders.created') {
    if (order.branchId === undefined || order.orderMode === undefined) {
      ctx.logger.warn({ orderId: order.orderId }, 'orders.created without branchId or orderMode: order not kept');
      return;
    }
    const at = new Date(order.createdAt ?? ctx.now());
    const delivery: Delivery = {
      _id: order.orderId,
      tenantId: order.tenantId,
      order: {
        orderNumber: order.orderNumber,
        branchId: order.branchId,
        orderMode: order.orderMode,
        status: order.status,
      },
      live: null,
      history: [],
      version: 1,
      eventRevision: 0,
      createdAt: at,
      updatedAt: at,
    };
    await ctx.store.deliveries.insert(tenant, delivery);
    return;
  }
  if (type === 'payment.completed') return;
  const decision = await changeDelivery<object, null>(ctx, tenant, order.orderId, (delivery, now) => {
    // An order created before this service read the topic (started at its end) has no delivery here.
    const change = delivery && orderStatusChanged(delivery, order.status, now);
    return change ?? { unchanged: null };
  });
  if ('next' in decision && decision.events.length > 0)
    ctx.logger.info(
      { orderId: order.orderId, status: order.status },
      'order ended: its live delivery assignment was terminated',
    );
}

export async function applyInstallationChange(ctx: DeliveryContext, change: InstallationChanged): Promise<void> {
  await ctx.store.installations.saveIfNewer(
    { tenantId: change.tenantId },
    {
      _id: change.installationId,
      tenantId: change.tenantId,
      connected: change.connected,
      // Events from before scopes were published name none: not assignable until the next event.
      scopes: change.scopes ?? [],
      // Whether it can be told of an assignment (delivery.assigned by webhook).
      webhookUrl: change.webhookUrl,
      subscribedEvents: change.subscribedEvents,
      hasWebhookSecret: change.webhookSecretSealed !== null,
      revision: change.revision,
    },
  );
}

type BranchState = CatalogChange['state'] & CatalogChangeDefinitions.Branch;
const isBranch = (change: CatalogChange, state: CatalogChange['state']): state is BranchState =>
  change.entity === 'branch' && 'coordinates' in state && 'address' in state;

/** Branch changes only: the rest of the catalog is not this service's business. */
export async function applyCatalogChange(ctx: DeliveryContext, change: CatalogChange): Promise<void> {
  const state = change.state;
  if (!isBranch(change, state)) return;
  await ctx.store.branches.saveIfNewer(
    { tenantId: change.tenantId },
    {
      _id: change.id,
      tenantId: change.tenantId,
      sequence: change.sequence,
      deleted: change.deleted,
      name: state.name,
      address: branchAddressLine(state.address),
      latitude: state.coordinates?.latitude ?? null,
      longitude: state.coordinates?.longitude ?? null,
      externalLocationId: state.externalLocationId,
    },
  );
}
