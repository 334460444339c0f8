import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { StoredPromotion } from '../domain/promotion';

export type PromotionDoc = StoredPromotion;

/** A tenant's promotion code, pointing to its promotion (`_id`: tenant:CODE, so a unique insert claims the code). */
export interface PromotionCodeDoc {
  _id: string;
  promotionId: string;
}

/** Codes are stored normalized (see `normalizeCode`); callers pass them so. */
const codeId = (owner: TenantOwner, code: string) => `${owner.tenantId}:${code}`;

/** The tenant's promotions and the codes that name them. */
export class PromotionsRepository {
  static readonly storages: readonly RepositoryStorage[] = [
    {
      collection: 'promotions',
      indexes: [
        // listByCode (the tenant's promotions, by code); the others go by `_id`.
        { key: { tenantId: 1, code: 1 }, name: 'tenant_code' },
      ],
    },
    // claimCode, findByCode, releaseCode: by `_id` (tenant and code).
    { collection: 'promotion_codes', indexes: [] },
  ];

  private readonly promotions: Collection<PromotionDoc>;
  private readonly codes: Collection<PromotionCodeDoc>;

  constructor(db: Db) {
    const [promotions, codes] = PromotionsRepository.storages.map((s) => s.collection);
    this.promotions = db.collection(promotions!);
    this.codes = db.collection(codes!);
  }

  async findById(owner: TenantOwner, promotionId: string): Promise<PromotionDoc | undefined> {
    return (await this.promotions.findOne({ _id: promotionId, tenantId: owner.tenantId })) ?? undefined;
  }

  /** The promotion the tenant's code names, or undefined. */
  async findByCode(owner: TenantOwner, code: string): Promise<PromotionDoc | undefined> {
    const entry = await this.codes.findOne({ _id: codeId(owner, code) });
    return entry ? this.findById(owner, entry.promotionId) : undefined;
  }

  /** The tenant's promotions, by code. */
  listByCode(owner: TenantOwner): Promise<PromotionDoc[]> {
    return this.promotions.find({ tenantId: owner.tenantId }).sort({ code: 1 }).toArray();
  }

  async insert(owner: TenantOwner, promotion: PromotionDoc): Promise<void> {
    if (promotion.tenantId !== owner.tenantId) throw new Error('the promotion belongs to another tenant');
    await this.promotions.insertOne(promotion);
  }

  /** Replaces the tenant's promotion; false when there is no such promotion. */
  async replace(owner: TenantOwner, promotion: PromotionDoc): Promise<boolean> {
    if (promotion.tenantId !== owner.tenantId) throw new Error('the promotion belongs to another tenant');
    const { matchedCount } = await this.promotions.replaceOne(
      { _id: promotion._id, tenantId: owner.tenantId },
      promotion,
    );
    return matchedCount === 1;
  }

  /** Deletes the tenant's promotion (not its code: see releaseCode); false when there is no such promotion. */
  async delete(owner: TenantOwner, promotionId: string): Promise<boolean> {
    const { deletedCount } = await this.promotions.deleteOne({ _id: promotionId, tenantId: owner.tenantId });
    return deletedCount === 1;
  }

  /** Claims the tenant's code for a promotion (a unique insert); false when another promotion has it. */
  async claimCode(owner: TenantOwner, code: string, promotionId: string): Promise<boolean> {
    try {
      await this.codes.insertOne({ _id: codeId(owner, code), promotionId });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Frees the tenant's code, if `promotionId` holds it; true when it did. */
  async releaseCode(owner: TenantOwner, code: string, promotionId: string): Promise<boolean> {
    const { deletedCount } = await this.codes.deleteOne({ _id: codeId(owner, code), promotionId });
    return deletedCount === 1;
  }
}
