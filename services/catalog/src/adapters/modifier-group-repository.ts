import type { Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { ModifierGroup } from '../domain/model';
import { liveOf, ResourceRepository, TENANT_LIVE, type ResourceDoc } from './resource-repository';

/** A modifier group as stored in `modifier_groups` (its outbox included). */
export type ModifierGroupDoc = ResourceDoc<ModifierGroup>;

/** Modifier groups with their options, and how groups nest through the options. */
export class ModifierGroupRepository extends ResourceRepository<ModifierGroup> {
  static readonly storage: RepositoryStorage = {
    collection: 'modifier_groups',
    // listLive, nestingGraph, liveIdsNesting, liveOptionIds (a tenant's live groups). `_id` (one-field unique, `$in`): liveIdsAmong.
    indexes: [TENANT_LIVE],
  };

  constructor(db: Db) {
    super(db, ModifierGroupRepository.storage);
  }

  /** Which of these ids are live groups of the owner. */
  async liveIdsAmong(owner: TenantOwner, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const docs = await this.collection
      .find(liveOf<ModifierGroup>(owner, { _id: { $in: [...ids] } }), { projection: { _id: 1 } })
      .toArray();
    return docs.map((doc) => doc._id);
  }

  /** The owner's live groups, each with the groups its options open (to check nesting). */
  async nestingGraph(owner: TenantOwner): Promise<Map<string, string[]>> {
    const docs = await this.collection
      .find(liveOf<ModifierGroup>(owner), { projection: { _id: 1, 'options.childGroupIds': 1 } })
      .toArray();
    return new Map(docs.map((doc) => [doc._id, (doc.options ?? []).flatMap((o) => o.childGroupIds)]));
  }

  /** Ids of the owner's live groups with an option opening this group. */
  async liveIdsNesting(owner: TenantOwner, groupId: string): Promise<string[]> {
    const docs = await this.collection
      .find(liveOf<ModifierGroup>(owner, { 'options.childGroupIds': groupId }), { projection: { _id: 1 } })
      .toArray();
    return docs.map((doc) => doc._id);
  }

  /** The option ids of the owner's live groups (what availability may name). */
  async liveOptionIds(owner: TenantOwner): Promise<string[]> {
    const docs = await this.collection
      .find(liveOf<ModifierGroup>(owner), { projection: { 'options.id': 1 } })
      .toArray();
    return docs.flatMap((doc) => (doc.options ?? []).map((o) => o.id));
  }
}
