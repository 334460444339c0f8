import { notFound } from '@marketplace/errors';
import type { ContractVersion } from '../../domain/entities';
import type { GatewayContext } from '../context';

export async function getContractVersion(
  ctx: GatewayContext,
  appId: string,
  version: number,
): Promise<ContractVersion> {
  const doc = await ctx.store.contractVersions.findVersion(appId, version);
  if (!doc) throw notFound();
  return doc;
}
