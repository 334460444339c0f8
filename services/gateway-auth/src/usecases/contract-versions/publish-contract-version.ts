import type { ContractVersion } from '../../domain/entities';
import type { GatewayContext } from '../context';
import { getContractVersion } from './get-contract-version';
import { withContractVersionLock } from './with-contract-version-lock';

/** Publishes a draft (under the version's lock); publishing a published version changes nothing. */
export function publishContractVersion(ctx: GatewayContext, appId: string, version: number): Promise<ContractVersion> {
  return withContractVersionLock(ctx, appId, version, async () => {
    const current = await getContractVersion(ctx, appId, version);
    if (current.status === 'Published') return current;
    const updated = await ctx.store.contractVersions.publishDraft(appId, version, ctx.now());
    return updated ?? (await getContractVersion(ctx, appId, version));
  });
}
