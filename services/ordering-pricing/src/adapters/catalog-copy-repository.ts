import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { CopiedEntity } from '../domain/catalog-copy';

/**
 * One catalog resource as the catalog last published it (`_id`: tenant:entity:id); and per tenant
 * one `meta` document (`_id`: tenant:meta) holding the highest sequence applied.
 */
export interface CatalogCopyDoc {
  _id: string;
  tenantId: string;
  entity: CopiedEntity | 'meta';
  sequence: number;
  deleted: boolean;
  state: Record<string, unknown>;
}

const metaId = (owner: TenantOwner) => `${owner.tenantId}:meta`;

/** Ordering's copy of each tenant's catalog, kept from the catalog topic. */
export class CatalogCopyRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'catalog_copy',
    // Every method goes by `_id` (one, or a list with $in), the tenant checked on the document.
    indexes: [],
  };

  private readonly copy: Collection<CatalogCopyDoc>;

  constructor(db: Db) {
    this.copy = db.collection(CatalogCopyRepository.storage.collection);
  }

  /** Replaces the held resource if it holds an earlier sequence; false when it holds this one or a later one, or none. */
  async replaceIfOlder(owner: TenantOwner, doc: CatalogCopyDoc): Promise<boolean> {
    if (doc.tenantId !== owner.tenantId) throw new Error('the resource belongs to another tenant');
    const { matchedCount } = await this.copy.updateOne(
      { _id: doc._id, tenantId: owner.tenantId, sequence: { $lt: doc.sequence } },
      { $set: doc },
    );
    return matchedCount === 1;
  }

  /** Stores a resource not held yet; false when it is held already. */
  async insertIfAbsent(owner: TenantOwner, doc: CatalogCopyDoc): Promise<boolean> {
    if (doc.tenantId !== owner.tenantId) throw new Error('the resource belongs to another tenant');
    try {
      await this.copy.insertOne(doc);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Records that the tenant's copy as a whole has reached `sequence` (never lowers it). */
  async raiseSequence(owner: TenantOwner, sequence: number): Promise<void> {
    await this.copy.updateOne(
      { _id: metaId(owner), tenantId: owner.tenantId },
      { $max: { sequence }, $setOnInsert: { entity: 'meta', deleted: false, state: {} } },
      { upsert: true },
    );
  }

  /** The highest sequence applied to the tenant's copy (0 before the first). */
  async findSequence(owner: TenantOwner): Promise<number> {
    return (await this.copy.findOne({ _id: metaId(owner), tenantId: owner.tenantId }))?.sequence ?? 0;
  }

  /** The tenant's documents by copy id (see `catalogCopyId` in domain/catalog-copy.ts); ids not held are absent. */
  async findByIds(owner: TenantOwner, ids: readonly string[]): Promise<Map<string, CatalogCopyDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await this.copy.find({ _id: { $in: [...ids] }, tenantId: owner.tenantId }).toArray();
    return new Map(docs.map((doc) => [doc._id, doc]));
  }
}
