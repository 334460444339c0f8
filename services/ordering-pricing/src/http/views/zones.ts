import { fromMinorUnits } from '@marketplace/money';
import type { DeliveryZone } from '../../domain/delivery-zone';
import type { TenantScope } from '../../domain/tenant-scope';

/** Tenant API: a delivery zone, money in the tenant's currency. */
export const zoneView = (zone: DeliveryZone, tenant: TenantScope) => ({
  id: zone.id,
  branchId: zone.branchId,
  name: zone.name,
  geometry: zone.geometry,
  isActive: zone.isActive,
  fee: fromMinorUnits(zone.feeMinor, tenant.decimals),
  minimumOrder: zone.minimumOrderMinor === null ? null : fromMinorUnits(zone.minimumOrderMinor, tenant.decimals),
  currencyCode: tenant.currencyCode,
  createdAt: zone.createdAt.toISOString(),
  updatedAt: zone.updatedAt.toISOString(),
});
