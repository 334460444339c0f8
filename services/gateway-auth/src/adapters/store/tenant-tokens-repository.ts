import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { TenantTokenDoc } from './documents';

/**
 * The tenant bearer tokens administrators minted, collection `tenant_tokens`: id (the token's
 * `jti`), tenant, issuer, creation, expiry, revocation. Never the token itself.
 */
export class TenantTokensRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'tenant_tokens',
    indexes: [
      // The unique `_id` (implicit) serves insert; find and revoke add the owner to it.
      // listForTenant: the tenant's tokens, newest first.
      { key: { tenantId: 1, createdAt: -1 }, name: 'tenant_created' },
      // listRevokedIdsAcrossTenants: only revoked tokens have the field (sparse), and the range
      // keeps those not yet expired.
      { key: { revokedUntil: 1 }, name: 'revoked_until', sparse: true },
    ],
  };

  private readonly tokens: Collection<TenantTokenDoc>;

  constructor(db: Db) {
    this.tokens = db.collection(TenantTokensRepository.storage.collection);
  }

  async insert(owner: TenantOwner, token: Omit<TenantTokenDoc, 'tenantId'>): Promise<void> {
    await this.tokens.insertOne({ ...token, tenantId: owner.tenantId });
  }

  async find(owner: TenantOwner, tokenId: string): Promise<TenantTokenDoc | undefined> {
    return (await this.tokens.findOne({ _id: tokenId, tenantId: owner.tenantId })) ?? undefined;
  }

  /** The tenant's tokens, newest first, at most `limit`. */
  async listForTenant(owner: TenantOwner, limit: number): Promise<TenantTokenDoc[]> {
    return this.tokens.find({ tenantId: owner.tenantId }).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
  }

  /**
   * Revokes the tenant's token, unless it is revoked already (its first revocation stands). True
   * when this call revoked it; false for an unknown, another tenant's or an already revoked token.
   */
  async revoke(owner: TenantOwner, tokenId: string, revokedAt: Date, revokedBy: string): Promise<boolean> {
    const token = await this.find(owner, tokenId);
    if (!token || token.revokedAt !== null) return false;
    const { modifiedCount } = await this.tokens.updateOne(
      { _id: tokenId, tenantId: owner.tenantId, revokedAt: null },
      { $set: { revokedAt, revokedBy, revokedUntil: token.expiresAt } },
    );
    return modifiedCount === 1;
  }

  /**
   * The ids of every revoked token not yet expired at `now`, of all tenants: the gateways'
   * revocation list (a bearer token names no owner before it is checked).
   */
  async listRevokedIdsAcrossTenants(now: Date): Promise<string[]> {
    const docs = await this.tokens.find({ revokedUntil: { $gt: now } }, { projection: { _id: 1 } }).toArray();
    return docs.map((d) => d._id);
  }
}
