import type { IndexDescription } from 'mongodb';
import type { IndexPlan } from './mongo';

/**
 * The owners a repository scopes its queries to. Methods on owned data take one of these as a
 * required argument, so a query without its owner does not compile, and they put the owner in
 * the filter itself: another owner's document is simply not found (the caller's 404).
 */
export interface TenantOwner {
  readonly tenantId: string;
}

export interface InstallationOwner {
  readonly tenantId: string;
  readonly installationId: string;
}

/**
 * What a repository tells the runtime about its collection: the name and the indexes that serve
 * its queries. Declared next to the queries (a static `storage` on the repository class), checked
 * by each service's index test against the real engine.
 */
export interface RepositoryStorage {
  readonly collection: string;
  readonly indexes: readonly IndexDescription[];
}

/** The index plan of a service: each repository's collection and indexes. */
export function indexPlanOf(...storages: readonly RepositoryStorage[]): IndexPlan {
  const plan: IndexPlan = {};
  for (const { collection, indexes } of storages) {
    plan[collection] = [...(plan[collection] ?? []), ...indexes];
  }
  return plan;
}
