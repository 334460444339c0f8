import type { TenantTokenRecord } from '../../domain/entities';
import type { GatewayContext } from '../context';
import { getTenant } from './get-tenant';

/** Most tokens the administrators' list of a tenant's tokens shows (newest first). */
const TENANT_TOKEN_LIST_LIMIT = 200;

/** The tenant's minted tokens, newest first (ids and dates; the tokens themselves are never stored). */
export async function listTenantTokens(ctx: GatewayContext, tenantId: string): Promise<TenantTokenRecord[]> {
  const tenant = await getTenant(ctx, tenantId);
  return ctx.store.tenantTokens.listForTenant({ tenantId: tenant._id }, TENANT_TOKEN_LIST_LIMIT);
}
