import { TOPICS, type CatalogChange } from '@marketplace/contracts';
import type { OutgoingEvent, PlatformTopics } from '@marketplace/events';
import type { CatalogEventStates } from '../domain/event-state';
import type { CatalogContext, TenantScope } from './context';

/** How long reads stay uncached while a write is applied; longer than any write takes. */
const DIRTY_WINDOW_MS = 60_000;

/** The kinds of catalog resources, as the catalog topic names them (its `entity`). */
export type ResourceKind = CatalogChange['entity'];

/** Where a change's events wait until published: the collection and id of the changed document. */
export interface Changed<T> {
  result: T;
  collection: string;
  id: string;
}

/**
 * Applies one change of a tenant's catalog: under the tenant's write lock, with the next change
 * sequence. Before the write, the tenant's catalog revision changes and reads are marked uncached;
 * after it, caching resumes. So a partner read that starts after the tenant's write was
 * acknowledged never gets a menu cached before it, on any catalog instance, even if this process
 * dies half-way (the mark expires on its own). The change's event is in the changed document (the
 * outbox) and is published right after, before the lock is released.
 */
export async function applyChange<T>(
  ctx: CatalogContext,
  tenant: TenantScope,
  work: (seq: number, now: Date) => Promise<Changed<T>>,
): Promise<T> {
  const changed = await ctx.store.locks.runExclusive(tenant, async () => {
    const now = ctx.now();
    const seq = await ctx.store.meta.startChange(tenant, new Date(now.getTime() + DIRTY_WINDOW_MS));
    let changed: Changed<T>;
    try {
      changed = await work(seq, now);
    } finally {
      await ctx.store.meta.finishChange(tenant);
    }
    // Published now, still under the lock: the tenant's next change starts only once this one's
    // event is on Kafka, so its events normally leave in the order of its changes. If Kafka is
    // away, the flush gives up after its timeout and the outbox sweep publishes later.
    await ctx.outbox.flush(changed.collection, changed.id);
    return changed;
  });
  return changed.result;
}

/** The event of a change: the resource's whole state after it (see the README, "Events"). */
export function catalogEvent<K extends ResourceKind>(
  kind: K,
  tenant: TenantScope,
  seq: number,
  id: string,
  deleted: boolean,
  state: CatalogEventStates[K],
): OutgoingEvent<PlatformTopics, typeof TOPICS.catalog> {
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
