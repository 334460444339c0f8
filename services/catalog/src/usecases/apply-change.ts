import type { CatalogContext, TenantScope } from './context';

/** How long reads stay uncached while a write is applied; longer than any write takes. */
const DIRTY_WINDOW_MS = 60_000;

/**
 * What a change wrote: its result, and the repository and id of the changed document, whose events
 * wait there to be published.
 */
export interface Changed<T> {
  result: T;
  written: { collectionName: string };
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
    await ctx.outbox.flush(changed.written.collectionName, changed.id);
    return changed;
  });
  return changed.result;
}
