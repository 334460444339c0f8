import type { TenantProfile } from '@marketplace/identity';
import type { GatewayContext } from '../context';

/** The tenant's currency and default language, passed to owner services in the signed identity. */
export async function findTenantProfile(ctx: GatewayContext, tenantId: string): Promise<TenantProfile | undefined> {
  return ctx.store.tenants.profileOf({ tenantId });
}
