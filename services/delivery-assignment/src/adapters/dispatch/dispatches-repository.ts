import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { ProviderDispatch } from '../../domain/dispatch/dispatch';

/**
 * Collection `provider_dispatches`: one document per assignment to a provider connection (`_id`
 * the assignment id). Every method on one dispatch names the tenant, but the callback's lookup:
 * its token is the capability (256 random bits, stored as a hash), as a tracking link's is.
 */
export class DispatchesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'provider_dispatches',
    indexes: [
      { key: { callbackTokenHash: 1 }, name: 'callback_token', unique: true },
      // dueForWork: a range on a one-field index (absent when nothing is due: sparse).
      { key: { dueAt: 1 }, name: 'due_at', sparse: true },
      { key: { tenantId: 1, orderId: 1 }, name: 'tenant_order' },
      // openStateTimes: the dispatches whose provider delivery may still change.
      { key: { closed: 1 }, name: 'closed' },
    ],
  };

  private readonly dispatches: Collection<ProviderDispatch>;

  constructor(db: Db) {
    this.dispatches = db.collection(DispatchesRepository.storage.collection);
  }

  /** False when the assignment's dispatch is stored already (a redelivered event). */
  async insert(owner: TenantOwner, dispatch: ProviderDispatch): Promise<boolean> {
    if (dispatch.tenantId !== owner.tenantId) throw new Error('the dispatch belongs to another tenant');
    try {
      await this.dispatches.insertOne(dispatch);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async find(owner: TenantOwner, assignmentId: string): Promise<ProviderDispatch | undefined> {
    return (await this.dispatches.findOne({ _id: assignmentId, tenantId: owner.tenantId })) ?? undefined;
  }

  /** The dispatch a callback URL's token belongs to (the token's hash): whoever's, the token is the capability. */
  async findByCallbackToken(tokenHash: string): Promise<ProviderDispatch | undefined> {
    return (await this.dispatches.findOne({ callbackTokenHash: tokenHash })) ?? undefined;
  }

  /** The order's dispatches, oldest first. */
  async listForOrder(owner: TenantOwner, orderId: string): Promise<ProviderDispatch[]> {
    const found = await this.dispatches.find({ tenantId: owner.tenantId, orderId }).toArray();
    return found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** The dispatcher's work list, of every tenant: due now, soonest first. */
  async dueForWork(now: Date, limit: number): Promise<ProviderDispatch[]> {
    return this.dispatches
      .find({ dueAt: { $lte: now } })
      .sort({ dueAt: 1 })
      .limit(limit)
      .toArray();
  }

  /** When each open dispatch last heard from its provider (the staleness gauge), of every tenant. */
  async openStateTimes(): Promise<Array<{ lastHeardAt: Date | null; createdAt: Date }>> {
    return this.dispatches.find({ closed: false }, { projection: { _id: 0, lastHeardAt: 1, createdAt: 1 } }).toArray();
  }

  /** Writes `next` if the stored one is still at `next.version - 1`; false when another change came first. */
  async replaceIfUnchanged(owner: TenantOwner, next: ProviderDispatch): Promise<boolean> {
    if (next.tenantId !== owner.tenantId) throw new Error('the dispatch belongs to another tenant');
    const { matchedCount } = await this.dispatches.replaceOne(
      { _id: next._id, tenantId: owner.tenantId, version: next.version - 1 },
      next,
    );
    return matchedCount === 1;
  }
}
