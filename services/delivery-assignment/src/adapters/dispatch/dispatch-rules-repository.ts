import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { DispatchRules } from '../../domain/dispatch/plan';

export type { DispatchRules };

/** Collection `dispatch_rules`: one document per tenant (`_id` the tenant id). */
export class DispatchRulesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'dispatch_rules',
    // find and save go by `_id`.
    indexes: [],
  };

  private readonly rules: Collection<DispatchRules>;

  constructor(db: Db) {
    this.rules = db.collection(DispatchRulesRepository.storage.collection);
  }

  async find(owner: TenantOwner): Promise<DispatchRules | undefined> {
    return (await this.rules.findOne({ _id: owner.tenantId })) ?? undefined;
  }

  async save(owner: TenantOwner, rules: Omit<DispatchRules, '_id'>): Promise<DispatchRules> {
    const doc = { _id: owner.tenantId, ...rules };
    await this.rules.replaceOne({ _id: owner.tenantId }, doc, { upsert: true });
    return doc;
  }
}
