import { busy } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import type { ContractVersionInput } from '@marketplace/contracts';
import type { ContractVersion } from '../../domain/entities';
import { contractVersionId } from '../../domain/ids';
import { getApp } from '../apps/get-app';
import type { GatewayContext } from '../context';
import { checkContractVersion } from './check-contract-version';
import { sealContractFields } from './seal-contract-fields';

export async function createContractVersion(
  ctx: GatewayContext,
  appId: string,
  input: ContractVersionInput,
): Promise<ContractVersion> {
  await getApp(ctx, appId);
  checkContractVersion(ctx, input);
  // One creation per app at a time, so concurrent ones queue instead of racing for a number.
  const created = await ctx.locks.withLock(`contract-versions:${appId}`, { ttlMs: 10_000, waitMs: 10_000 }, () =>
    insertNextVersion(ctx, appId, input),
  );
  if (!created) throw busy('Another version is being created for this app; try again shortly.');
  return created.value;
}

/** Under the per-app lock: the highest number plus one. The unique `_id` still guards the number
 * should the lock ever expire mid-way (then the loser is told to retry). */
async function insertNextVersion(
  ctx: GatewayContext,
  appId: string,
  input: ContractVersionInput,
): Promise<ContractVersion> {
  const last = await ctx.store.contractVersions.findLatestForApp(appId);
  const version = (last?.version ?? 0) + 1;
  const now = ctx.now();
  const doc: ContractVersion = {
    _id: contractVersionId(appId, version),
    appId,
    version,
    status: 'Draft',
    ...sealContractFields(ctx, appId, version, input),
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
  };
  try {
    await ctx.store.contractVersions.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw busy('Another version is being created for this app; try again shortly.');
    throw error;
  }
  return doc;
}
