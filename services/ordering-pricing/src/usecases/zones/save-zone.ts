import { randomUUID } from 'node:crypto';
import type { DeliveryZoneInput } from '@marketplace/contracts';
import { notFound, validationError, type FieldErrors } from '@marketplace/errors';
import { areaGeometryProblem } from '@marketplace/geo';
import { toMinorUnits } from '@marketplace/money';
import type { DeliveryZoneDoc } from '../../adapters/delivery-zones-repository';
import { zoneOf, type DeliveryZone } from '../../domain/delivery-zone';
import { findBranch } from '../catalog/find-branch';
import type { OrderingContext, TenantScope } from '../context';

/** The contract's body; `geometry` is checked here (a GeoJSON polygon the schema only says is an object). */
export type ZoneInput = DeliveryZoneInput;

const money = (tenant: TenantScope) => `must be a non-negative amount with at most ${tenant.decimals} decimals`;

/** Creates (no id) or replaces a zone. The branch must be one of the tenant's branches as ordering knows them. */
export async function saveZone(
  ctx: OrderingContext,
  tenant: TenantScope,
  id: string | undefined,
  input: ZoneInput,
): Promise<DeliveryZone> {
  const errors: FieldErrors = {};
  const geometryProblem = areaGeometryProblem(input.geometry);
  if (geometryProblem) errors.geometry = [geometryProblem];
  const feeMinor = toMinorUnits(input.fee, tenant.decimals);
  if (feeMinor === undefined) errors.fee = [money(tenant)];
  const minimumOrderMinor = input.minimumOrder == null ? null : toMinorUnits(input.minimumOrder, tenant.decimals);
  if (minimumOrderMinor === undefined) errors.minimumOrder = [money(tenant)];
  const existing = id ? await ctx.store.zones.findById(tenant, id) : undefined;
  if (id && !existing) throw notFound();
  if (!(await findBranch(ctx.uncachedCatalogCopy, tenant.tenantId, input.branchId)))
    errors.branchId = ['is not a branch of this restaurant'];
  if (Object.keys(errors).length > 0)
    throw validationError('request.invalid', 'The delivery zone is invalid; see errors.', errors);
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
  // As read back: the geometry is the stored JSON text, parsed.
  return zoneOf(zone);
}
