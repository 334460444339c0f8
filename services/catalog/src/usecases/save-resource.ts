import { randomUUID } from 'node:crypto';
import { notFound } from '@marketplace/errors';
import { catalogEvent } from '../domain/catalog-event';
import { MANAGED_EVENT_STATES } from '../domain/event-state';
import type { ManagedKind, ManagedResources } from '../domain/model';
import { applyChange } from './apply-change';
import type { CatalogContext, TenantScope } from './context';
import { findResource } from './find-resource';

/**
 * Creates or replaces a resource, the same way for every kind: tenant-scoped in the query, one
 * document write carrying the change's event. `prepare` validates (it may read the catalog,
 * under the lock) and gives the fields to store; `id` undefined creates.
 */
export async function saveResource<K extends ManagedKind, F extends object>(
  ctx: CatalogContext,
  kind: K,
  tenant: TenantScope,
  id: string | undefined,
  prepare: (existing: ManagedResources[K] | undefined) => Promise<F>,
): Promise<ManagedResources[K]> {
  const repository = ctx.resources[kind];
  return applyChange(ctx, tenant, async (seq, now) => {
    const existing = id === undefined ? undefined : await findResource(ctx, kind, tenant, id);
    const fields = await prepare(existing);
    const doc = {
      ...(existing ?? { _id: randomUUID(), tenantId: tenant.tenantId, deleted: false, createdAt: now }),
      ...fields,
      seq,
      updatedAt: now,
    } as ManagedResources[K];
    const event = catalogEvent(kind, tenant, seq, doc._id, false, MANAGED_EVENT_STATES[kind](doc));
    if (existing) {
      if (!(await repository.replaceLive(tenant, doc._id, fields, seq, [event], now))) throw notFound();
    } else {
      await repository.insertWithEvents(tenant, doc, [event], now);
    }
    return { result: doc, written: repository, id: doc._id };
  });
}
