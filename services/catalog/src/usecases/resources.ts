import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@marketplace/errors';
import type { ResourceRepository } from '../adapters/resource-repository';
import type { CatalogEventStates } from '../domain/event-state';
import type { CatalogResource } from '../domain/model';
import { applyChange, catalogEvent, type ResourceKind } from './change';
import type { CatalogContext, TenantScope } from './context';

/**
 * Create, replace and delete, the same way for every catalog resource: tenant-scoped in the query,
 * one document write carrying the change's event.
 */
export interface ResourceType<R extends CatalogResource, K extends ResourceKind = ResourceKind> {
  kind: K;
  repository(ctx: CatalogContext): ResourceRepository<R>;
  /** What its events carry as `state`: the schema's state of this kind (domain/event-state.ts). */
  eventState(doc: R): CatalogEventStates[K];
}

export async function listResources<R extends CatalogResource>(
  ctx: CatalogContext,
  type: ResourceType<R>,
  tenant: TenantScope,
): Promise<R[]> {
  return type.repository(ctx).listLive(tenant);
}

/** The tenant's live resource, or 404 (another tenant's is the same 404). */
export async function findResource<R extends CatalogResource>(
  ctx: CatalogContext,
  type: ResourceType<R>,
  tenant: TenantScope,
  id: string,
): Promise<R> {
  const doc = await type.repository(ctx).findLive(tenant, id);
  if (!doc) throw notFound();
  return doc;
}

/**
 * Runs a change: `prepare` validates (it may read the catalog, under the lock) and gives the fields
 * to store; `id` undefined creates.
 */
export async function saveResource<R extends CatalogResource, F extends object>(
  ctx: CatalogContext,
  type: ResourceType<R>,
  tenant: TenantScope,
  id: string | undefined,
  prepare: (existing: R | undefined) => Promise<F>,
): Promise<R> {
  const repository = type.repository(ctx);
  return applyChange(ctx, tenant, async (seq, now) => {
    const existing = id === undefined ? undefined : await findResource(ctx, type, tenant, id);
    const fields = await prepare(existing);
    const doc = {
      ...(existing ?? { _id: randomUUID(), tenantId: tenant.tenantId, deleted: false, createdAt: now }),
      ...fields,
      seq,
      updatedAt: now,
    } as R;
    const event = catalogEvent(type.kind, tenant, seq, doc._id, false, type.eventState(doc));
    if (existing) {
      if (!(await repository.replaceLive(tenant, doc._id, fields, seq, [event], now))) throw notFound();
    } else {
      await repository.insertWithEvents(tenant, doc, [event], now);
    }
    return { result: doc, collection: repository.collectionName, id: doc._id };
  });
}

/** Deletes (a tombstone carrying the last event); `usedBy` lists what still refers to it, which refuses it. */
export async function deleteResource<R extends CatalogResource>(
  ctx: CatalogContext,
  type: ResourceType<R>,
  tenant: TenantScope,
  id: string,
  usedBy: () => Promise<string[]> = async () => [],
): Promise<void> {
  const repository = type.repository(ctx);
  await applyChange(ctx, tenant, async (seq, now) => {
    const existing = await findResource(ctx, type, tenant, id);
    const users = await usedBy();
    if (users.length > 0)
      throw conflict('catalog.in_use', `The ${type.kind} is still in use; change or delete what uses it first.`, {
        usedBy: users.slice(0, 100),
      });
    const state = type.eventState({ ...existing, updatedAt: now });
    const event = catalogEvent(type.kind, tenant, seq, id, true, state);
    await repository.markDeleted(tenant, id, seq, [event], now);
    return { result: undefined, collection: repository.collectionName, id };
  });
}
