import { notFound } from '@marketplace/errors';
import type { Installation } from '../../domain/entities';
import type { GatewayContext } from '../context';

/** The tenant's own live installation; anything else (another tenant's, uninstalled, unknown) is 404. */
export async function findInstallation(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
): Promise<Installation> {
  const doc = await ctx.store.installations.findLive({ tenantId }, installationId);
  if (!doc) throw notFound();
  return doc;
}
