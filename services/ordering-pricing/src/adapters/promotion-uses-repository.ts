import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';

/**
 * One use of a limited promotion (`_id`: promotion:slot, slots 1 to the limit, so a unique insert
 * takes a slot). The tenant and the promotion are stored too, for counting by equality; uses
 * stored before they were (local development data only) are not counted.
 */
export interface PromotionUseDoc {
  _id: string;
  tenantId: string;
  promotionId: string;
  orderId: string;
}

/** Uses of the tenant's limited promotions. */
export class PromotionUsesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'promotion_uses',
    indexes: [
      // countUses; takeSlot goes by `_id`.
      { key: { tenantId: 1, promotionId: 1 }, name: 'tenant_promotion' },
    ],
  };

  private readonly uses: Collection<PromotionUseDoc>;

  constructor(private readonly db: Db) {
    this.uses = db.collection(PromotionUsesRepository.storage.collection);
  }

  /**
   * How many uses of the promotion are taken. The `count` command, not countDocuments: the local
   * engine answers countDocuments (an aggregation) by reading the whole collection, `count` from
   * the index; MongoDB answers both from it.
   */
  async countUses(owner: TenantOwner, promotionId: string): Promise<number> {
    const result = await this.db.command({
      count: PromotionUsesRepository.storage.collection,
      query: { tenantId: owner.tenantId, promotionId },
    });
    return result.n as number;
  }

  /** Takes the slot of the promotion for an order (a unique insert); false when it is taken. */
  async takeSlot(owner: TenantOwner, promotionId: string, slot: number, orderId: string): Promise<boolean> {
    try {
      await this.uses.insertOne({ _id: `${promotionId}:${slot}`, tenantId: owner.tenantId, promotionId, orderId });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
