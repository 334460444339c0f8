import type { PricedOrder } from '../../domain/order';
import { linesToPrice } from '../../domain/order-lines';
import {
  branchSnapshot,
  checkOrderRequest,
  checkOrderSubtotal,
  type OrderRequest,
  type RequestedData,
} from '../../domain/order-request';
import { ORDER_MODE } from '../../domain/order-status';
import { priceOrder, subtotalOf } from '../../domain/pricing';
import { normalizeCode } from '../../domain/promotion';
import { loadMenuSlice } from '../catalog/load-menu-slice';
import type { OrderingContext, TenantScope } from '../context';
import { loadServiceFee } from '../service-fee/load-service-fee';

/**
 * Every check of the create-order rules that needs stored data, and the price, in stages: load
 * what the request names → check it (all problems reported together, 400 with `errors`) → check
 * what needs the subtotal (pricing's step 1) → price (domain/pricing.ts). Nothing is written.
 */
export async function priceRequest(
  ctx: OrderingContext,
  tenant: TenantScope,
  request: OrderRequest,
  now: Date,
): Promise<PricedOrder> {
  const [found, serviceFee] = await Promise.all([
    loadRequestedData(ctx, tenant, request),
    loadServiceFee(ctx.store.settings, tenant),
  ]);
  const { lines, branch } = checkOrderRequest(request, tenant, found);
  const toPrice = linesToPrice(lines);
  checkOrderSubtotal(request, tenant, found, subtotalOf(toPrice), now);
  const { zone, promotion } = found;
  const { lines: pricedLines, ...totals } = priceOrder({
    lines: toPrice,
    promotion: promotion?.effect ?? null,
    deliveryFeeMinor: zone?.feeMinor ?? 0,
    serviceFee,
  });
  return {
    lines: lines.map((l, i) => ({ ...l, priced: pricedLines[i]! })),
    totals,
    promotion: promotion
      ? { id: promotion._id, code: promotion.code, effect: promotion.effect, usageLimit: promotion.usageLimit }
      : null,
    branch: branchSnapshot(branch),
  };
}

/** The menu the lines touch, the delivery zone (of a delivery naming one) and the promotion the code names. */
async function loadRequestedData(
  ctx: OrderingContext,
  tenant: TenantScope,
  request: OrderRequest,
): Promise<RequestedData> {
  const zoneId = request.orderMode === ORDER_MODE.Delivery ? request.deliveryZoneId : null;
  const [menu, zone, promotion] = await Promise.all([
    loadMenuSlice(ctx.catalogCopy.session(), tenant.tenantId, request.branchId, request.lines),
    zoneId != null ? ctx.store.zones.findById(tenant, zoneId) : Promise.resolve(undefined),
    request.promotionCode != null
      ? ctx.store.promotions.findByCode(tenant, normalizeCode(request.promotionCode))
      : Promise.resolve(undefined),
  ]);
  return { menu, zone, promotion };
}
