import { conflict } from '@marketplace/errors';
import type { ContractVersionInput } from '@marketplace/contracts';
import type { ContractVersion } from '../../domain/entities';
import type { GatewayContext } from '../context';
import { checkContractVersion } from './check-contract-version';
import { getContractVersion } from './get-contract-version';
import { sealContractFields } from './seal-contract-fields';
import { withContractVersionLock } from './with-contract-version-lock';

const published = () =>
  conflict(
    'marketplace.contract_version.published',
    'A published contract version is immutable; create a new version.',
  );

/** Changes a draft (under the version's lock); a published version is immutable. */
export function updateContractVersion(
  ctx: GatewayContext,
  appId: string,
  version: number,
  input: ContractVersionInput,
): Promise<ContractVersion> {
  return withContractVersionLock(ctx, appId, version, async () => {
    const current = await getContractVersion(ctx, appId, version);
    if (current.status === 'Published') throw published();
    checkContractVersion(ctx, input);
    const updated = await ctx.store.contractVersions.updateDraft(
      appId,
      version,
      sealContractFields(ctx, appId, version, input),
      ctx.now(),
    );
    if (!updated) throw published();
    return updated;
  });
}
