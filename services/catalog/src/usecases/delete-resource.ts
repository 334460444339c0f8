import { conflict } from '@marketplace/errors';
import { catalogEvent } from '../domain/catalog-event';
import { MANAGED_EVENT_STATES } from '../domain/event-state';
import type { ManagedKind } from '../domain/model';
import { applyChange } from './apply-change';
import type { CatalogContext, TenantScope } from './context';
import { findResource } from './find-resource';

/**
 * Deletes a resource of any kind (a tombstone carrying the last event); `usedBy` lists what still
 * refers to it, which refuses it (409 `catalog.in_use`).
 */
export async function deleteResource<K extends ManagedKind>(
  ctx: CatalogContext,
  kind: K,
  tenant: TenantScope,
  id: string,
  usedBy: () => Promise<string[]> = async () => [],
): Promise<void> {
  const repository = ctx.resources[kind];
  await applyChange(ctx, tenant, async (seq, now) => {
    const existing = await findResource(ctx, kind, tenant, id);
    const users = await usedBy();
    if (users.length > 0)
      throw conflict('catalog.in_use', `The ${kind} is still in use; change or delete what uses it first.`, {
        usedBy: users.slice(0, 100),
      });
    const state = MANAGED_EVENT_STATES[kind]({ ...existing, updatedAt: now });
    const event = catalogEvent(kind, tenant, seq, id, true, state);
    await repository.markDeleted(tenant, id, seq, [event], now);
    return { result: undefined, written: repository, id };
  });
}
