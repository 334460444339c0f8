import type { Logger } from '@marketplace/logging';
import type { CatalogStore, ResourceRepositories } from '../adapters/store';
import type { EventOutbox, MenuCache, PartnerViews } from './ports';

export type { TenantScope } from '../domain/tenant-scope';

/** What the use cases work with; service.ts wires the adapters in. */
export interface CatalogContext {
  /** The repositories: every query is scoped to a tenant, and one change at a time per tenant (store.locks). */
  store: CatalogStore;
  /** The same repositories of the store, by the kind of resource they keep. */
  resources: ResourceRepositories;
  outbox: EventOutbox;
  /** The partner bodies kept per catalog revision. */
  menus: MenuCache;
  views: PartnerViews;
  logger: Logger;
  now(): Date;
}
