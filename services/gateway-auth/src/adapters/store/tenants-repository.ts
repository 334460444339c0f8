import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { ProcessorSecrets } from '../../domain/entities';
import type { TenantDoc } from './documents';

/** The platform's tenants (restaurants), collection `tenants`. A tenant is its own owner. */
export class TenantsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'tenants',
    indexes: [
      // The unique `_id` (implicit) serves findTenant, profileOf, processorSecretsOf and setProcessorSecrets.
      // insert (a taken slug is a duplicate key) and findBySlug.
      { key: { slug: 1 }, name: 'slug_unique', unique: true },
      // listAllAcrossTenants: on MongoDB 7 the sort and limit walk this index (the local engine
      // reads every tenant for it; see docs/services/gateway-auth.md, "Storage").
      { key: { createdAt: 1 }, name: 'created' },
    ],
  };

  private readonly tenants: Collection<TenantDoc>;

  constructor(db: Db) {
    this.tenants = db.collection(TenantsRepository.storage.collection);
  }

  /** Creates the tenant; a taken slug throws the duplicate-key error (see isDuplicateKeyError). */
  async insert(tenant: TenantDoc): Promise<void> {
    await this.tenants.insertOne(tenant);
  }

  async findTenant(owner: TenantOwner): Promise<TenantDoc | undefined> {
    return (await this.tenants.findOne({ _id: owner.tenantId })) ?? undefined;
  }

  /** The tenant's currency and default language (fixed at creation), for the signed identity. */
  async profileOf(owner: TenantOwner): Promise<Pick<TenantDoc, 'currencyCode' | 'defaultLanguage'> | undefined> {
    const doc = await this.tenants.findOne(
      { _id: owner.tenantId },
      { projection: { currencyCode: 1, defaultLanguage: 1 } },
    );
    return doc ? { currencyCode: doc.currencyCode, defaultLanguage: doc.defaultLanguage } : undefined;
  }

  /** The tenant's payment-processor secrets (sealed); null when it has none, undefined when there is no such tenant. */
  async processorSecretsOf(owner: TenantOwner): Promise<ProcessorSecrets | null | undefined> {
    const doc = await this.tenants.findOne({ _id: owner.tenantId }, { projection: { paymentProcessor: 1 } });
    return doc ? (doc.paymentProcessor ?? null) : undefined;
  }

  /** Replaces the tenant's payment-processor secrets (null: none); false when there is no such tenant. */
  async setProcessorSecrets(owner: TenantOwner, secrets: ProcessorSecrets | null): Promise<boolean> {
    const { matchedCount } = await this.tenants.updateOne(
      { _id: owner.tenantId },
      { $set: { paymentProcessor: secrets } },
    );
    return matchedCount === 1;
  }

  /** Administrators look tenants up by slug: no owner, the slug is what they know. */
  async findBySlug(slug: string): Promise<TenantDoc | undefined> {
    return (await this.tenants.findOne({ slug })) ?? undefined;
  }

  /** The administrators' list of every tenant, oldest first, capped: admin-wide by nature. */
  async listAllAcrossTenants(limit: number): Promise<TenantDoc[]> {
    return this.tenants.find({}).sort({ createdAt: 1 }).limit(limit).toArray();
  }
}
