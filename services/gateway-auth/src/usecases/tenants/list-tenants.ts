import type { Tenant } from '../../domain/entities';
import type { GatewayContext } from '../context';

export async function listTenants(ctx: GatewayContext, slug?: string): Promise<Tenant[]> {
  if (slug) {
    const tenant = await ctx.store.tenants.findBySlug(slug);
    return tenant ? [tenant] : [];
  }
  return ctx.store.tenants.listAllAcrossTenants(1000);
}
