import type { Collection, Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { ProviderDispatch } from '../../domain/dispatch/dispatch';

const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } } as const;

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

  private readonly dispatches: Collection<ProviderDispatch & OutboxFields>;

  constructor(db: Db) {
    this.dispatches = db.collection(DispatchesRepository.storage.collection);
  }

  /** False when the assignment's dispatch is stored already (a redelivered event). Its events go in the same write. */
  async insert(
    owner: TenantOwner,
    dispatch: ProviderDispatch,
    events: readonly OutgoingEvent[] = [],
  ): Promise<boolean> {
    if (dispatch.tenantId !== owner.tenantId) throw new Error('the dispatch belongs to another tenant');
    try {
      await this.dispatches.insertOne(events.length > 0 ? withOutbox(dispatch, events) : dispatch);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async find(owner: TenantOwner, assignmentId: string): Promise<ProviderDispatch | undefined> {
    return (
      (await this.dispatches.findOne({ _id: assignmentId, tenantId: owner.tenantId }, WITHOUT_OUTBOX)) ?? undefined
    );
  }

  /** The dispatch a callback URL's token belongs to (the token's hash): whoever's, the token is the capability. */
  async findByCallbackToken(tokenHash: string): Promise<ProviderDispatch | undefined> {
    return (await this.dispatches.findOne({ callbackTokenHash: tokenHash }, WITHOUT_OUTBOX)) ?? undefined;
  }

  /** The order's dispatches, oldest first. */
  async listForOrder(owner: TenantOwner, orderId: string): Promise<ProviderDispatch[]> {
    const found = await this.dispatches.find({ tenantId: owner.tenantId, orderId }, WITHOUT_OUTBOX).toArray();
    return found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** The dispatcher's work list, of every tenant: due now, soonest first. */
  async dueForWork(now: Date, limit: number): Promise<ProviderDispatch[]> {
    return this.dispatches
      .find({ dueAt: { $lte: now } }, WITHOUT_OUTBOX)
      .sort({ dueAt: 1 })
      .limit(limit)
      .toArray();
  }

  /** When each open dispatch last heard from its provider (the staleness gauge), of every tenant. */
  async openStateTimes(): Promise<Array<{ lastHeardAt: Date | null; createdAt: Date }>> {
    return this.dispatches.find({ closed: false }, { projection: { _id: 0, lastHeardAt: 1, createdAt: 1 } }).toArray();
  }

  /**
   * Writes `next` if the stored one is still at `next.version - 1`, with `events` staged in the
   * same write; false when another change came first. Its fields are set one by one (and `dueAt`
   * unset when absent), so the outbox the relay clears is never overwritten.
   */
  async replaceIfUnchanged(
    owner: TenantOwner,
    next: ProviderDispatch,
    events: readonly OutgoingEvent[] = [],
  ): Promise<boolean> {
    if (next.tenantId !== owner.tenantId) throw new Error('the dispatch belongs to another tenant');
    const { _id, ...fields } = next;
    const unset = {
      ...(next.dueAt === undefined ? { dueAt: '' as const } : {}),
      ...(next.leaseUntil === undefined ? { leaseUntil: '' as const } : {}),
    };
    const update = { $set: fields, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) };
    const { matchedCount } = await this.dispatches.updateOne(
      { _id, tenantId: owner.tenantId, version: next.version - 1 },
      events.length > 0 ? updateWithOutbox<ProviderDispatch & OutboxFields>(update, events) : update,
    );
    return matchedCount === 1;
  }
}
