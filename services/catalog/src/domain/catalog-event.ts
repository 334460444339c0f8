import { TOPICS, type CatalogChange } from '@marketplace/contracts';
import type { CatalogEventStates } from './event-state';
import type { TenantScope } from './tenant-scope';

/** The kinds of catalog resources, as the catalog topic names them (its `entity`). */
export type ResourceKind = CatalogChange['entity'];

/** One event on the catalog topic, keyed by tenant so a tenant's changes stay in order. */
export interface CatalogEvent {
  topic: typeof TOPICS.catalog;
  key: string;
  type: `catalog.${ResourceKind}.changed`;
  data: CatalogChange;
}

/** The event of a change: the resource's whole state after it (see the README, "Events"). */
export function catalogEvent<K extends ResourceKind>(
  kind: K,
  tenant: TenantScope,
  seq: number,
  id: string,
  deleted: boolean,
  state: CatalogEventStates[K],
): CatalogEvent {
  return {
    topic: TOPICS.catalog,
    key: tenant.tenantId,
    type: `catalog.${kind}.changed`,
    data: {
      tenantId: tenant.tenantId,
      currencyCode: tenant.currencyCode,
      sequence: seq,
      entity: kind,
      id,
      deleted,
      state,
    },
  };
}
