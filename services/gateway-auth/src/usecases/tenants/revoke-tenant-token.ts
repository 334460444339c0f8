import { notFound } from '@marketplace/errors';
import type { TenantTokenRecord } from '../../domain/entities';
import type { GatewayContext } from '../context';
import { getTenant } from './get-tenant';

/**
 * Revokes one of the tenant's tokens: refused (401) on this instance at once, on every other
 * within the revocation list's refresh (see RevokedTokenIds). Revoking it again changes nothing.
 * 404 for an unknown tenant, or a token that is not this tenant's.
 */
export async function revokeTenantToken(
  ctx: GatewayContext,
  tenantId: string,
  tokenId: string,
  revokedBy: string,
): Promise<TenantTokenRecord> {
  const owner = { tenantId: (await getTenant(ctx, tenantId))._id };
  const revoked = await ctx.store.tenantTokens.revoke(owner, tokenId, ctx.now(), revokedBy);
  const record = await ctx.store.tenantTokens.find(owner, tokenId);
  if (!record) throw notFound();
  if (record.revokedAt !== null) ctx.revokedTokens.add(record._id);
  if (revoked) ctx.logger.info({ tenantId: owner.tenantId, tokenId, revokedBy }, 'tenant token revoked');
  return record;
}
