import { branchAddressLine, type CatalogChange, type CatalogChangeDefinitions } from '@marketplace/contracts';
import type { DeliveryContext } from './context';

type BranchState = CatalogChange['state'] & CatalogChangeDefinitions.Branch;
const isBranch = (change: CatalogChange, state: CatalogChange['state']): state is BranchState =>
  change.entity === 'branch' && 'coordinates' in state && 'address' in state;

/**
 * The branches copy, which a pickup is snapshotted from: branch changes only, the rest of the
 * catalog is not this service's business. Idempotent by itself (a sequence not newer changes nothing).
 */
export async function applyCatalogChange(ctx: DeliveryContext, change: CatalogChange): Promise<void> {
  const state = change.state;
  if (!isBranch(change, state)) return;
  await ctx.store.branches.saveIfNewer(
    { tenantId: change.tenantId },
    {
      _id: change.id,
      tenantId: change.tenantId,
      sequence: change.sequence,
      deleted: change.deleted,
      name: state.name,
      address: branchAddressLine(state.address),
      latitude: state.coordinates?.latitude ?? null,
      longitude: state.coordinates?.longitude ?? null,
      externalLocationId: state.externalLocationId,
    },
  );
}
