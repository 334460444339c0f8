import { randomUUID } from 'node:crypto';
import { notFound, validationError, type FieldErrors } from '@marketplace/errors';
import { fromMinorUnits, toMinorUnits } from '@marketplace/money';
import type { DeliveryZoneDoc } from '../adapters/delivery-zones-repository';
import { zoneGeometryProblem, type ZoneGeometry } from '../domain/geo';
import { findBranch, uncached } from './catalog-copy';
import type { OrderingContext, TenantScope } from './context';

export interface ZoneInput {
  branchId: string;
  name: string;
  geometry: unknown;
  isActive?: boolean;
  fee: number;
  minimumOrder?: number | null;
}

export const zoneView = (zone: DeliveryZoneDoc, tenant: TenantScope) => ({
  id: zone._id,
  branchId: zone.branchId,
  name: zone.name,
  geometry: JSON.parse(zone.geometryJson) as ZoneGeometry,
  isActive: zone.isActive,
  fee: fromMinorUnits(zone.feeMinor, tenant.decimals),
  minimumOrder: zone.minimumOrderMinor === null ? null : fromMinorUnits(zone.minimumOrderMinor, tenant.decimals),
  currencyCode: tenant.currencyCode,
  createdAt: zone.createdAt.toISOString(),
  updatedAt: zone.updatedAt.toISOString(),
});

const money = (tenant: TenantScope) => `must be a non-negative amount with at most ${tenant.decimals} decimals`;

/** Creates (no id) or replaces a zone. The branch must be one of the tenant's branches as ordering knows them. */
export async function saveZone(ctx: OrderingContext, tenant: TenantScope, id: string | undefined, input: ZoneInput) {
  const errors: FieldErrors = {};
  const geometryProblem = zoneGeometryProblem(input.geometry);
  if (geometryProblem) errors.geometry = [geometryProblem];
  const feeMinor = toMinorUnits(input.fee, tenant.decimals);
  if (feeMinor === undefined) errors.fee = [money(tenant)];
  const minimumOrderMinor = input.minimumOrder == null ? null : toMinorUnits(input.minimumOrder, tenant.decimals);
  if (minimumOrderMinor === undefined) errors.minimumOrder = [money(tenant)];
  const existing = id ? await ctx.store.zones.findById(tenant, id) : undefined;
  if (id && !existing) throw notFound();
  if (!(await findBranch(uncached(ctx.store.catalogCopy), tenant.tenantId, input.branchId))) errors.branchId = ['is not a branch of this restaurant'];
  if (Object.keys(errors).length > 0) throw validationError('order.validation_failed', 'The delivery zone is invalid; see errors.', errors);
  const now = ctx.now();
  const zone: DeliveryZoneDoc = {
    _id: id ?? randomUUID(),
    tenantId: tenant.tenantId,
    branchId: input.branchId,
    name: input.name,
    geometryJson: JSON.stringify(input.geometry),
    isActive: input.isActive ?? true,
    feeMinor: feeMinor!,
    minimumOrderMinor: minimumOrderMinor ?? null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  if (!existing) await ctx.store.zones.insert(tenant, zone);
  else await ctx.store.zones.replace(tenant, zone);
  return zoneView(zone, tenant);
}

export async function getZone(ctx: OrderingContext, tenant: TenantScope, id: string) {
  const zone = await ctx.store.zones.findById(tenant, id);
  if (!zone) throw notFound();
  return zoneView(zone, tenant);
}

export async function listZones(ctx: OrderingContext, tenant: TenantScope, branchId?: string) {
  const zones = await ctx.store.zones.listByName(tenant, branchId || undefined);
  return zones.map((z) => zoneView(z, tenant));
}

/** Orders keep their zone id and fee; deleting a zone only stops new orders to it. */
export async function deleteZone(ctx: OrderingContext, tenant: TenantScope, id: string) {
  if (!(await ctx.store.zones.delete(tenant, id))) throw notFound();
}
