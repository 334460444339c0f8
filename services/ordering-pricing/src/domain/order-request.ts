import { branchAddressLine, type CreateOrderRequest } from '@marketplace/contracts';
import { validationError, type FieldErrors } from '@marketplace/errors';
import { areaContains, type AreaGeometry } from '@marketplace/geo';
import { fromMinorUnits, toMinorUnits } from '@marketplace/money';
import { isLocated, type LocatedBranch, type MenuSlice } from './catalog-copy';
import type { StoredDeliveryZone } from './delivery-zone';
import { resolveLines, type ResolvedLine } from './order-lines';
import { ORDER_MODE } from './order-status';
import { promotionProblem, type StoredPromotion } from './promotion';
import type { TenantScope } from './tenant-scope';

/** Spec: Create order request; its schema, limits and phone rule are the contract's (`@marketplace/contracts`). */
export type OrderRequest = CreateOrderRequest;

export { ORDER_LIMITS, PHONE_PATTERN } from '@marketplace/contracts';

/** The Partner API's answer to an order that breaks the create-order rules: 400 with `errors`. */
export const invalidOrder = (errors: FieldErrors) =>
  validationError('request.invalid', 'The order is invalid; see errors.', errors);

/** What the request names, as stored: the menu it touches, its delivery zone and its promotion. */
export interface RequestedData {
  menu: MenuSlice;
  zone: StoredDeliveryZone | undefined;
  promotion: StoredPromotion | undefined;
}

/** A request whose identifiers all hold: its lines resolved against the menu, and its branch. */
export interface CheckedRequest {
  lines: ResolvedLine[];
  branch: LocatedBranch;
}

/**
 * Every check of the create-order rules on what the request names: the expected total's form, the
 * branch, the delivery zone and address, every line, the promotion code. All problems are collected
 * and reported together (400 with `errors`). The modes, payment methods and which delivery fields
 * each mode takes are the contract's schema's rules, checked before this runs.
 */
export function checkOrderRequest(request: OrderRequest, tenant: TenantScope, found: RequestedData): CheckedRequest {
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => (errors[path] ??= []).push(message);
  if (request.expectedTotal != null && toMinorUnits(request.expectedTotal, tenant.decimals) === undefined) {
    add('expectedTotal', `must be a non-negative amount with at most ${tenant.decimals} decimals`);
  }
  const branch = found.menu.branch;
  if (!branch || !branch.isActive) add('branchId', 'is not an active branch of this restaurant');
  // Its address and coordinates are the order's pickup (numbers, always, in the Partner API's
  // Branch pickup info). Catalog refuses an active branch without them; one stored before it did
  // cannot take orders.
  else if (!isLocated(branch)) add('branchId', 'has no address or coordinates, so it cannot take orders');
  if (request.orderMode === ORDER_MODE.Delivery && request.deliveryZoneId != null) {
    const zone = found.zone;
    if (!zone || zone.branchId !== request.branchId) add('deliveryZoneId', 'is not a delivery zone of this branch');
    else if (!zone.isActive) add('deliveryZoneId', 'is not active');
    else if (
      request.deliveryAddress != null &&
      !areaContains(JSON.parse(zone.geometryJson) as AreaGeometry, request.deliveryAddress)
    )
      add('deliveryAddress', 'lies outside the delivery zone');
  }
  const resolved = branch?.isActive ? resolveLines(request.lines, found.menu) : { errors: {} };
  if ('errors' in resolved)
    for (const [path, messages] of Object.entries(resolved.errors)) messages.forEach((m) => add(path, m));
  if (request.promotionCode != null && !found.promotion)
    add('promotionCode', 'is not a promotion code of this restaurant');
  if (Object.keys(errors).length > 0 || !('lines' in resolved) || !branch || !isLocated(branch))
    throw invalidOrder(errors);
  return { lines: resolved.lines, branch };
}

/**
 * The checks that need the subtotal: the promotion applies to this order (branch, window, minimum),
 * and the subtotal reaches the delivery zone's minimum order.
 */
export function checkOrderSubtotal(
  request: OrderRequest,
  tenant: TenantScope,
  found: Pick<RequestedData, 'zone' | 'promotion'>,
  subtotalMinor: number,
  now: Date,
): void {
  const { promotion, zone } = found;
  if (promotion) {
    const problem = promotionProblem(
      { ...promotion, id: promotion._id },
      { branchId: request.branchId, subtotalMinor, at: now },
    );
    if (problem) throw invalidOrder({ promotionCode: [problem] });
  }
  if (zone?.minimumOrderMinor != null && subtotalMinor < zone.minimumOrderMinor) {
    throw invalidOrder({
      lines: [
        `the subtotal is below this delivery zone's minimum order of ${fromMinorUnits(zone.minimumOrderMinor, tenant.decimals)} ${tenant.currencyCode}`,
      ],
    });
  }
}

/** The branch as the order keeps it: its pickup for drivers, as it was when the order was placed. */
export interface BranchSnapshot {
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  externalLocationId: string | null;
}

export function branchSnapshot(branch: LocatedBranch): BranchSnapshot {
  return {
    name: branch.name,
    address: branchAddressLine(branch.address),
    latitude: branch.coordinates.latitude,
    longitude: branch.coordinates.longitude,
    externalLocationId: branch.externalLocationId,
  };
}
