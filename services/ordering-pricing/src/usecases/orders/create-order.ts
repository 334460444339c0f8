import { randomUUID } from 'node:crypto';
import { AppError, conflict } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import { fromMinorUnits, toMinorUnits } from '@marketplace/money';
import type { InstallationOwner } from '@marketplace/store';
import { newOrder, type Order, type PricedOrder } from '../../domain/order';
import { orderCreated } from '../../domain/order-events';
import { invalidOrder, type OrderRequest } from '../../domain/order-request';
import type { OrderingContext, TenantScope } from '../context';
import { takePromotionUse } from '../promotions/take-promotion-use';
import { priceRequest } from './price-request';

/** A claim older than this whose order never appeared was left by a crashed request. */
const ABANDONED_CLAIM_MS = 60_000;

/** The external order id claimed for a new order id, or the order a repeat of the request gets. */
type Claim = { orderId: string; existing?: undefined } | { existing: Order; orderId?: undefined };

/**
 * POST /orders: checks every identifier against the current catalog copy and the tenant's zones and
 * promotions, prices the order, then stores it with its orders.created event. Nothing is stored
 * before every check passed. Exactly one order per (installation, externalOrderId): the claim of the
 * external id decides, and a repeat of the same request (same Idempotency-Key) gets the same order.
 *
 * Stages: price (price-request.ts) → compare with the expected total → claim the external id →
 * take a use of the promotion → build the order (domain/order.ts) → write it with its event.
 */
export async function createOrder(
  ctx: OrderingContext,
  caller: PartnerIdentity,
  tenant: TenantScope,
  request: OrderRequest,
): Promise<Order> {
  const idempotencyKey = caller.idempotencyKey ?? '';
  const now = ctx.now();
  const priced = await priceRequest(ctx, tenant, request, now);
  checkExpectedTotal(request, tenant, priced);
  const claim = await claimExternalId(ctx, caller, request.externalOrderId, idempotencyKey, now);
  if (claim.existing) return claim.existing;
  const orderId = claim.orderId;
  await takeUseOrRelease(ctx, caller, tenant, request, priced, orderId);
  const order = newOrder({
    orderId,
    orderNumber: await ctx.orderNumbers.claim(tenant, orderId),
    tenant,
    source: {
      installationId: caller.installationId,
      appId: caller.appId,
      externalOrderId: request.externalOrderId,
      idempotencyKey,
    },
    request,
    priced,
    now,
  });
  return storeOrder(ctx, tenant, order, now);
}

/** A request that states the total it expects is refused (409) when the computed one differs. */
function checkExpectedTotal(request: OrderRequest, tenant: TenantScope, priced: PricedOrder): void {
  if (
    request.expectedTotal !== undefined &&
    request.expectedTotal !== null &&
    toMinorUnits(request.expectedTotal, tenant.decimals) !== priced.totals.grandTotalMinor
  ) {
    throw new AppError(
      'conflict',
      'tenancy.order.price_mismatch',
      'expectedTotal differs from the computed grandTotal; nothing was created.',
      {
        details: { computed: computedFigures(priced.totals, tenant) },
      },
    );
  }
}

/**
 * Takes a use of a limited promotion for the order; if none is left (400) or taking it fails, the
 * external id is released so that it stays usable.
 */
async function takeUseOrRelease(
  ctx: OrderingContext,
  caller: InstallationOwner,
  tenant: TenantScope,
  request: OrderRequest,
  priced: PricedOrder,
  orderId: string,
): Promise<void> {
  try {
    if (
      priced.promotion?.usageLimit != null &&
      !(await takePromotionUse(
        ctx.store.promotionUses,
        tenant,
        priced.promotion.id,
        priced.promotion.usageLimit,
        orderId,
      ))
    ) {
      throw invalidOrder({ promotionCode: ['has reached its usage limit'] });
    }
  } catch (error) {
    await ctx.store.orderClaims
      .releaseExternalOrderClaim(caller, request.externalOrderId, orderId)
      .catch(() => undefined); // the id stays usable
    throw error;
  }
}

/**
 * Writes the order with its orders.created event (one write), then publishes the event. Under the
 * order's lock: a tenant may act on the order as soon as it is stored, and that change must not
 * race this flush on the same document.
 */
async function storeOrder(ctx: OrderingContext, tenant: TenantScope, order: Order, now: Date): Promise<Order> {
  return ctx.orderLock.run(order._id, async () => {
    const inserted = await ctx.store.orders.insertWithEvents(
      tenant,
      order,
      [orderCreated(order, ctx.sealDropoff(order))],
      now,
    );
    if (!inserted) {
      const stored = await ctx.store.orders.findById(tenant, order._id); // a concurrent repeat stored it first
      return stored!;
    }
    // As written, without a read-back; its clear is batched with other new orders' (relay.ts).
    await ctx.orderOutbox.flushInserted(inserted);
    return order;
  });
}

/**
 * Claims the installation's external order id for a new order id. If it is claimed already: by the
 * same request (same key), its order is the answer (or, if that request died before storing it,
 * its order id is reused); by another key, 409, unless that claim was abandoned long ago.
 */
async function claimExternalId(
  { store }: OrderingContext,
  owner: InstallationOwner,
  externalOrderId: string,
  idempotencyKey: string,
  now: Date,
): Promise<Claim> {
  const orderId = randomUUID();
  if (await store.orderClaims.claimExternalOrderId(owner, externalOrderId, { orderId, idempotencyKey, createdAt: now }))
    return { orderId };
  const claim = await store.orderClaims.findExternalOrderClaim(owner, externalOrderId);
  const order = claim && (await store.orders.findById(owner, claim.orderId));
  if (claim && order) {
    if (claim.idempotencyKey === idempotencyKey) return { existing: order };
    throw externalIdConflict();
  }
  if (claim && claim.idempotencyKey === idempotencyKey) return { orderId: claim.orderId };
  if (claim && now.getTime() - claim.createdAt.getTime() > ABANDONED_CLAIM_MS) {
    if (
      await store.orderClaims.takeOverExternalOrderClaim(owner, externalOrderId, claim.orderId, {
        orderId,
        idempotencyKey,
        createdAt: now,
      })
    )
      return { orderId };
  }
  throw externalIdConflict();
}

const externalIdConflict = () =>
  conflict(
    'tenancy.partner_api.external_order_id_conflict',
    'This externalOrderId was already used by this installation with another Idempotency-Key.',
  );

/** Spec figures of a price (major units), for the price-mismatch body. */
function computedFigures(totals: PricedOrder['totals'], tenant: TenantScope) {
  const m = (minor: number) => fromMinorUnits(minor, tenant.decimals);
  return {
    currencyCode: tenant.currencyCode,
    subtotal: m(totals.subtotalMinor),
    discountTotal: m(totals.discountMinor),
    taxTotal: m(totals.taxTotalMinor),
    deliveryFee: m(totals.deliveryFeeMinor),
    serviceFee: m(totals.serviceFeeMinor),
    grandTotal: m(totals.grandTotalMinor),
  };
}
