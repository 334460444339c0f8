import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { ServiceFeeRule } from '../domain/pricing';

/** A tenant's fee settings (`_id`: tenant id). */
export interface TenantSettingsDoc {
  _id: string;
  serviceFee: ServiceFeeRule;
  updatedAt: Date;
}

/** Each tenant's settings: one document, keyed by the tenant. */
export class TenantSettingsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'tenant_settings',
    // Both methods go by `_id` (the tenant id).
    indexes: [],
  };

  private readonly settings: Collection<TenantSettingsDoc>;

  constructor(db: Db) {
    this.settings = db.collection(TenantSettingsRepository.storage.collection);
  }

  /** The tenant's service fee, or undefined until it sets one. */
  async findServiceFee(owner: TenantOwner): Promise<ServiceFeeRule | undefined> {
    return (await this.settings.findOne({ _id: owner.tenantId }))?.serviceFee;
  }

  async saveServiceFee(owner: TenantOwner, serviceFee: ServiceFeeRule, now: Date): Promise<void> {
    await this.settings.updateOne({ _id: owner.tenantId }, { $set: { serviceFee, updatedAt: now } }, { upsert: true });
  }
}
