import { zoneOf, type DeliveryZone } from '../../domain/delivery-zone';
import type { OrderingContext, TenantScope } from '../context';

/** The tenant's zones (of one branch, if given), by name. */
export async function listZones(ctx: OrderingContext, tenant: TenantScope, branchId?: string): Promise<DeliveryZone[]> {
  const zones = await ctx.store.zones.listByName(tenant, branchId || undefined);
  return zones.map(zoneOf);
}
