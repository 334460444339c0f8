import { notFound } from '@marketplace/errors';
import type { Tenant } from '../../domain/entities';
import type { GatewayContext } from '../context';

export async function getTenant(ctx: GatewayContext, tenantId: string): Promise<Tenant> {
  const doc = await ctx.store.tenants.findTenant({ tenantId });
  if (!doc) throw notFound();
  return doc;
}
