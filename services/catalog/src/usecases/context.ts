import type { Logger } from '@marketplace/logging';
import type { OutboxRelay } from '@marketplace/outbox';
import type { CatalogStore } from '../adapters/store';
import type { MenuReads } from './menu-reads';

// The tenant scope has its own module (menu-reads needs it, and this context needs menu-reads).
export { tenantScope, type TenantScope } from './tenant-scope';

/** What the use cases work with. */
export interface CatalogContext {
  /** The repositories: every query is scoped to a tenant, and one change at a time per tenant (store.locks). */
  store: CatalogStore;
  outbox: OutboxRelay;
  reads: MenuReads;
  logger: Logger;
  now(): Date;
}
