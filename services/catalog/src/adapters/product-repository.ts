import type { Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { Product } from '../domain/model';
import { liveOf, ResourceRepository, TENANT_LIVE, WITHOUT_OUTBOX, type ResourceDoc } from './resource-repository';

/** A product as stored in `products` (its outbox included). */
export type ProductDoc = ResourceDoc<Product>;

/** Products with their variants, and the questions other resources ask about them. */
export class ProductRepository extends ResourceRepository<Product> {
  static readonly storage: RepositoryStorage = {
    collection: 'products',
    indexes: [
      // listLive, liveIdsWithTaxCategory, liveIdsOfferingGroup, liveProductAndVariantIds (a tenant's live products: at most a few hundred).
      TENANT_LIVE,
      // listLiveInCategory, liveIdsInCategory (on MongoDB 7 the category's products only; locally tenant_live serves them as well).
      { key: { tenantId: 1, categoryId: 1 }, name: 'tenant_category' },
    ],
  };

  constructor(db: Db) {
    super(db, ProductRepository.storage);
  }

  /** The owner's live products in a category (the tenant API's `?categoryId=`). */
  async listLiveInCategory(owner: TenantOwner, categoryId: string): Promise<Product[]> {
    return await this.collection.find(liveOf<Product>(owner, { categoryId }), WITHOUT_OUTBOX).toArray();
  }

  /** Ids of the owner's live products in a category (they keep it from being deleted). */
  async liveIdsInCategory(owner: TenantOwner, categoryId: string): Promise<string[]> {
    return ids(
      await this.collection.find(liveOf<Product>(owner, { categoryId }), { projection: { _id: 1 } }).toArray(),
    );
  }

  /** Ids of the owner's live products taxed by a tax category. */
  async liveIdsWithTaxCategory(owner: TenantOwner, taxCategoryId: string): Promise<string[]> {
    return ids(
      await this.collection.find(liveOf<Product>(owner, { taxCategoryId }), { projection: { _id: 1 } }).toArray(),
    );
  }

  /** Ids of the owner's live products with a variant offering a modifier group. */
  async liveIdsOfferingGroup(owner: TenantOwner, groupId: string): Promise<string[]> {
    return ids(
      await this.collection
        .find(liveOf<Product>(owner, { 'variants.modifierGroupIds': groupId }), { projection: { _id: 1 } })
        .toArray(),
    );
  }

  /** The owner's live product ids, each with its variant ids (what availability may name). */
  async liveProductAndVariantIds(owner: TenantOwner): Promise<Array<{ id: string; variantIds: string[] }>> {
    const docs = await this.collection
      .find(liveOf<Product>(owner), { projection: { _id: 1, 'variants.id': 1 } })
      .toArray();
    return docs.map((doc) => ({ id: doc._id, variantIds: (doc.variants ?? []).map((v) => v.id) }));
  }
}

const ids = (docs: Array<{ _id: string }>) => docs.map((doc) => doc._id);
