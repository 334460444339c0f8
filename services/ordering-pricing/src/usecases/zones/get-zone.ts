import { notFound } from '@marketplace/errors';
import { zoneOf, type DeliveryZone } from '../../domain/delivery-zone';
import type { OrderingContext, TenantScope } from '../context';

export async function getZone(ctx: OrderingContext, tenant: TenantScope, id: string): Promise<DeliveryZone> {
  const zone = await ctx.store.zones.findById(tenant, id);
  if (!zone) throw notFound();
  return zoneOf(zone);
}
