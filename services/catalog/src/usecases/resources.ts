import { randomUUID } from 'node:crypto';
import type { Collection, Filter } from 'mongodb';
import { conflict, notFound } from '@marketplace/errors';
import { updateWithOutbox, withOutbox } from '@marketplace/outbox';
import { eventState } from '../domain/views';
import { applyChange, catalogEvent, type ResourceKind } from './change';
import type { CatalogContext, TenantScope } from './context';

/**
 * Create, replace and delete, the same way for every catalog resource: tenant-scoped in the query,
 * one document write carrying the change's event.
 */
interface Owned {
  _id: string;
  tenantId: string;
  seq: number;
  deleted: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface ResourceType<D extends Owned> {
  kind: ResourceKind;
  collection(ctx: CatalogContext): Collection<D>;
  collectionName: string;
}

const PROJECTION = { projection: { _outbox: 0, _outboxSince: 0 } };

export const live = <D extends Owned>(tenant: TenantScope, extra: Record<string, unknown> = {}) => ({ tenantId: tenant.tenantId, deleted: false, ...extra }) as unknown as Filter<D>;

export async function listResources<D extends Owned>(ctx: CatalogContext, type: ResourceType<D>, tenant: TenantScope, extra: Record<string, unknown> = {}): Promise<D[]> {
  return (await type.collection(ctx).find(live<D>(tenant, extra), PROJECTION).toArray()) as D[];
}

/** The tenant's live resource, or 404 (another tenant's is the same 404). */
export async function findResource<D extends Owned>(ctx: CatalogContext, type: ResourceType<D>, tenant: TenantScope, id: string): Promise<D> {
  const doc = await type.collection(ctx).findOne(live<D>(tenant, { _id: id }), PROJECTION);
  if (!doc) throw notFound();
  return doc as D;
}

/**
 * Runs a change: `prepare` validates (it may read the catalog, under the lock) and gives the fields
 * to store; `id` undefined creates.
 */
export async function saveResource<D extends Owned, F extends object>(
  ctx: CatalogContext,
  type: ResourceType<D>,
  tenant: TenantScope,
  id: string | undefined,
  prepare: (existing: D | undefined) => Promise<F>,
): Promise<D> {
  return applyChange(ctx, tenant, async (seq, now) => {
    const existing = id === undefined ? undefined : await findResource(ctx, type, tenant, id);
    const fields = await prepare(existing);
    const doc = { ...(existing ?? { _id: randomUUID(), tenantId: tenant.tenantId, deleted: false, createdAt: now }), ...fields, seq, updatedAt: now } as D;
    const event = catalogEvent(type.kind, tenant, seq, doc._id, false, eventState(doc as never));
    if (existing) {
      const result = await type.collection(ctx).updateOne(live<D>(tenant, { _id: doc._id }), updateWithOutbox({ $set: { ...fields, seq, updatedAt: now } } as never, [event], now));
      if (result.matchedCount === 0) throw notFound();
    } else {
      await type.collection(ctx).insertOne(withOutbox(doc, [event], now) as never);
    }
    return { result: doc, collection: type.collectionName, id: doc._id };
  });
}

/** Deletes (a tombstone carrying the last event); `usedBy` lists what still refers to it, which refuses it. */
export async function deleteResource<D extends Owned>(ctx: CatalogContext, type: ResourceType<D>, tenant: TenantScope, id: string, usedBy: () => Promise<string[]> = async () => []): Promise<void> {
  await applyChange(ctx, tenant, async (seq, now) => {
    const existing = await findResource(ctx, type, tenant, id);
    const users = await usedBy();
    if (users.length > 0) throw conflict('catalog.in_use', `The ${type.kind} is still in use; change or delete what uses it first.`, { usedBy: users.slice(0, 100) });
    const state = eventState({ ...existing, updatedAt: now } as never);
    const event = catalogEvent(type.kind, tenant, seq, id, true, state);
    await type.collection(ctx).updateOne(live<D>(tenant, { _id: id }), updateWithOutbox({ $set: { deleted: true, seq, updatedAt: now } } as never, [event], now));
    return { result: undefined, collection: type.collectionName, id };
  });
}
