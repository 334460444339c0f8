import { randomUUID } from 'node:crypto';
import { AppError, conflict, validationError, type FieldErrors } from '@marketplace/errors';
import type { PartnerIdentity } from '@marketplace/identity';
import { fromMinorUnits, toMinorUnits } from '@marketplace/money';
import type { InstallationOwner } from '@marketplace/store';
import { ORDERS, type OrderingStore } from '../adapters/store';
import { areaContains, type AreaGeometry } from '@marketplace/geo';
import { branchAddressLine } from '@marketplace/contracts';
import { isLocated } from '../domain/catalog-copy';
import type { Order } from '../domain/order';
import { orderCreated } from '../domain/order-events';
import { resolveLines } from '../domain/order-lines';
import type { OrderRequest } from '../domain/order-request';
import { ORDER_MODE, ORDER_STATUS, PAYMENT_STATUS } from '../domain/order-status';
import { priceOrder, type PriceBreakdown } from '../domain/pricing';
import { normalizeCode, promotionProblem } from '../domain/promotion';
import { loadMenuSlice } from './catalog-copy';
import type { OrderingContext, TenantScope } from './context';
import { takePromotionUse } from './promotion-uses';
import { serviceFeeOf } from './settings';

/** A claim older than this whose order never appeared was left by a crashed request. */
const ABANDONED_CLAIM_MS = 60_000;

/** The Partner API's code for a validation failure (with `errors`), as its OpenAPI document says. */
const VALIDATION = 'request.invalid';
const invalid = (errors: FieldErrors) => validationError(VALIDATION, 'The order is invalid; see errors.', errors);

/**
 * POST /orders: checks every identifier against the current catalog copy and the tenant's zones and
 * promotions, prices the order, then stores it with its orders.created event. Nothing is stored
 * before every check passed. Exactly one order per (installation, externalOrderId): the claim of the
 * external id decides, and a repeat of the same request (same Idempotency-Key) gets the same order.
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

  const claim = await claimExternalId(ctx.store, caller, request.externalOrderId, idempotencyKey, now);
  if (claim.existing) return claim.existing;
  const orderId = claim.orderId;
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
      throw invalid({ promotionCode: ['has reached its usage limit'] });
    }
  } catch (error) {
    await ctx.store.orderClaims
      .releaseExternalOrderClaim(caller, request.externalOrderId, orderId)
      .catch(() => undefined); // the id stays usable
    throw error;
  }

  const order: Order = {
    _id: orderId,
    tenantId: tenant.tenantId,
    branchId: request.branchId,
    orderNumber: await ctx.orderNumbers.claim(tenant, orderId),
    status: ORDER_STATUS.Pending,
    paymentStatus: PAYMENT_STATUS.Unpaid,
    orderMode: request.orderMode,
    paymentMethod: request.paymentMethod,
    source: {
      installationId: caller.installationId,
      appId: caller.appId,
      externalOrderId: request.externalOrderId,
      idempotencyKey,
    },
    customer: {
      name: request.customerName,
      phone: request.customerPhone,
      email: request.customerEmail ?? null,
      notes: request.customerNotes ?? null,
    },
    deliveryZoneId: request.deliveryZoneId ?? null,
    deliveryAddress: request.deliveryAddress
      ? {
          label: request.deliveryAddress.label ?? null,
          addressLine: request.deliveryAddress.addressLine,
          latitude: request.deliveryAddress.latitude,
          longitude: request.deliveryAddress.longitude,
          notes: request.deliveryAddress.notes ?? null,
        }
      : null,
    branch: priced.branch,
    currencyCode: tenant.currencyCode,
    decimals: tenant.decimals,
    lines: priced.lines,
    promotion: priced.promotion && {
      id: priced.promotion.id,
      code: priced.promotion.code,
      effect: priced.promotion.effect,
    },
    totals: priced.totals,
    liveAssignment: null,
    deliveryRevision: 0,
    cancellation: null,
    history: [{ status: 'Pending', at: now, by: 'source' }],
    createdAt: now,
    updatedAt: now,
  };
  // Under the order's lock: a tenant may act on the order as soon as it is stored, and that change
  // must not race this flush on the same document.
  return ctx.orderLock.run(orderId, async () => {
    if (!(await ctx.store.orders.insertWithEvents(tenant, order, [orderCreated(order)], now))) {
      const stored = await ctx.store.orders.findById(tenant, orderId); // a concurrent repeat stored it first
      return stored!;
    }
    await ctx.outbox.flush(ORDERS, orderId);
    return order;
  });
}

/**
 * Claims the installation's external order id for a new order id. If it is claimed already: by the
 * same request (same key), its order is the answer (or, if that request died before storing it,
 * its order id is reused); by another key, 409, unless that claim was abandoned long ago.
 */
async function claimExternalId(
  store: OrderingStore,
  owner: InstallationOwner,
  externalOrderId: string,
  idempotencyKey: string,
  now: Date,
): Promise<{ orderId: string; existing?: undefined } | { existing: Order; orderId?: undefined }> {
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
function computedFigures(totals: Omit<PriceBreakdown, 'lines'>, tenant: TenantScope) {
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

/**
 * Every check of the create-order rules that needs stored data, and the price. All problems are
 * collected and reported together (400 with `errors`), before anything is written.
 */
export async function priceRequest(ctx: OrderingContext, tenant: TenantScope, request: OrderRequest, now: Date) {
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => (errors[path] ??= []).push(message);

  // The modes, payment methods and which delivery fields each mode takes are the contract's schema's
  // rules, checked before this runs.
  const delivery = request.orderMode === ORDER_MODE.Delivery;
  const hasZone = request.deliveryZoneId != null;
  const hasAddress = request.deliveryAddress != null;
  if (request.expectedTotal != null && toMinorUnits(request.expectedTotal, tenant.decimals) === undefined) {
    add('expectedTotal', `must be a non-negative amount with at most ${tenant.decimals} decimals`);
  }

  const [menu, zone, promotion, serviceFee] = await Promise.all([
    loadMenuSlice(ctx.catalogCopy, tenant.tenantId, request.branchId, request.lines),
    delivery && hasZone ? ctx.store.zones.findById(tenant, request.deliveryZoneId!) : Promise.resolve(undefined),
    request.promotionCode != null
      ? ctx.store.promotions.findByCode(tenant, normalizeCode(request.promotionCode))
      : Promise.resolve(undefined),
    serviceFeeOf(ctx.store.settings, tenant),
  ]);

  const branch = menu.branch;
  if (!branch || !branch.isActive) add('branchId', 'is not an active branch of this restaurant');
  // Its address and coordinates are the order's pickup (numbers, always, in the Partner API's
  // Branch pickup info). Catalog refuses an active branch without them; one stored before it did
  // cannot take orders.
  else if (!isLocated(branch)) add('branchId', 'has no address or coordinates, so it cannot take orders');
  if (delivery && hasZone) {
    if (!zone || zone.branchId !== request.branchId) add('deliveryZoneId', 'is not a delivery zone of this branch');
    else if (!zone.isActive) add('deliveryZoneId', 'is not active');
    else if (hasAddress && !areaContains(JSON.parse(zone.geometryJson) as AreaGeometry, request.deliveryAddress!))
      add('deliveryAddress', 'lies outside the delivery zone');
  }
  const resolved = branch?.isActive ? resolveLines(request.lines, menu) : { errors: {} };
  if ('errors' in resolved)
    for (const [path, messages] of Object.entries(resolved.errors)) messages.forEach((m) => add(path, m));
  if (request.promotionCode != null && !promotion) add('promotionCode', 'is not a promotion code of this restaurant');
  if (Object.keys(errors).length > 0 || !('lines' in resolved) || !branch || !isLocated(branch)) throw invalid(errors);

  const lines = resolved.lines;
  const subtotalMinor = lines.reduce(
    (sum, l) => sum + (l.variantPriceMinor + l.modifiers.reduce((s, m) => s + m.priceMinor, 0)) * l.quantity,
    0,
  );
  if (promotion) {
    const problem = promotionProblem(
      { ...promotion, id: promotion._id },
      { branchId: request.branchId, subtotalMinor, at: now },
    );
    if (problem) throw invalid({ promotionCode: [problem] });
  }
  if (zone?.minimumOrderMinor != null && subtotalMinor < zone.minimumOrderMinor) {
    throw invalid({
      lines: [
        `the subtotal is below this delivery zone's minimum order of ${fromMinorUnits(zone.minimumOrderMinor, tenant.decimals)} ${tenant.currencyCode}`,
      ],
    });
  }
  const breakdown = priceOrder({
    lines: lines.map((l) => ({
      quantity: l.quantity,
      variantPriceMinor: l.variantPriceMinor,
      modifierPricesMinor: l.modifiers.map((m) => m.priceMinor),
      tax: l.tax,
    })),
    promotion: promotion?.effect ?? null,
    deliveryFeeMinor: zone?.feeMinor ?? 0,
    serviceFee,
  });
  const { lines: pricedLines, ...totals } = breakdown;
  return {
    lines: lines.map((l, i) => ({ ...l, priced: pricedLines[i]! })),
    totals,
    promotion: promotion
      ? { id: promotion._id, code: promotion.code, effect: promotion.effect, usageLimit: promotion.usageLimit }
      : null,
    branch: {
      name: branch.name,
      address: branchAddressLine(branch.address),
      latitude: branch.coordinates.latitude,
      longitude: branch.coordinates.longitude,
      externalLocationId: branch.externalLocationId,
    },
  };
}
