import type { Pickup } from './delivery';

/** What a pickup needs of a branch (the branches copy). */
export interface BranchFacts {
  _id: string;
  deleted: boolean;
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  externalLocationId: string | null;
}

/** The branch's snapshot for an assignment, or why it cannot be a pickup. */
export function pickupOfBranch(branch: BranchFacts | undefined): Pickup | string {
  if (!branch || branch.deleted) return 'the branch no longer exists';
  if (branch.latitude === null || branch.longitude === null) return 'the branch has no coordinates';
  if (branch.address === '') return 'the branch has no address';
  return {
    branchId: branch._id,
    name: branch.name,
    address: branch.address,
    latitude: branch.latitude,
    longitude: branch.longitude,
    externalLocationId: branch.externalLocationId,
  };
}
