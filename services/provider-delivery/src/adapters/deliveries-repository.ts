import type { Collection, Db } from 'mongodb';
import type { ProviderStatusName } from '@marketplace/contracts';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import { isDuplicateKeyError, type RepositoryStorage } from '@marketplace/store';
import type {
  CallbackSource,
  DeliveryChanges,
  DeliveryOrder,
  SentLocation,
  StoredDelivery,
  StoredOffer,
  Tracking,
} from '../domain/delivery';
import type { AccountOwner } from '../domain/platform-account';

/**
 * One document per create request that passed validation, keyed within the account by its
 * idempotency key: an accepted one is the delivery itself; a business rejection keeps the answer
 * (and the payload's fingerprint), so its replays get the same refusal. Its events for the
 * platform are staged in the same write as the change that makes them (the outbox).
 */
export interface DeliveryDoc {
  /** Our providerDeliveryId (a rejection's id is never shown). */
  _id: string;
  accountId: string;
  idempotencyKey: string;
  /** SHA-256 of the canonical payload (domain/delivery.ts payloadFingerprint). */
  fingerprint: string;
  accepted: boolean;
  rejectionReason: string | null;
  callbackSource: CallbackSource;
  /** The callback URL, sealed for the webhook sender (its path token is a secret); null for none. */
  callbackUrlSealed: string | null;
  order: DeliveryOrder;
  /** Null for a rejection. */
  status: ProviderStatusName | null;
  statusEventTimeUtc: Date;
  tracking: Tracking;
  lastSentLocation: SentLocation | null;
  returnReasonCode: string | null;
  timeScale: number;
  trackingToken: string;
  driverId: string | null;
  offers: StoredOffer[];
  dispatchAt: Date | null;
  /** Whether `dispatchAt` is set: what dueForDispatch's index finds (absent on deliveries from before dispatch). */
  dispatching?: boolean;
  failureReason: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What a replay is compared with and answered from. */
export type IdempotencyRecord = Pick<
  DeliveryDoc,
  '_id' | 'fingerprint' | 'accepted' | 'rejectionReason' | 'callbackSource' | 'callbackUrlSealed'
>;

/** The fields a change sets (domain/delivery.ts). */
export type { DeliveryChanges };

const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } } as const;

function deliveryOf(doc: DeliveryDoc): StoredDelivery {
  return {
    id: doc._id,
    accountId: doc.accountId,
    order: doc.order,
    status: doc.status!,
    statusEventTimeUtc: doc.statusEventTimeUtc,
    tracking: doc.tracking,
    lastSentLocation: doc.lastSentLocation,
    returnReasonCode: doc.returnReasonCode,
    // Deliveries stored before drivers existed: real time, no page, never dispatched.
    timeScale: doc.timeScale ?? 1,
    trackingToken: doc.trackingToken ?? '',
    driverId: doc.driverId ?? null,
    offers: doc.offers ?? [],
    dispatchAt: doc.dispatchAt ?? null,
    failureReason: doc.failureReason ?? null,
    version: doc.version,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    callbackSource: doc.callbackSource,
    callbackUrlSealed: doc.callbackUrlSealed,
  };
}

/** Collection `deliveries`: every method names the account, so another account's delivery is not found. */
export class DeliveriesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'deliveries',
    indexes: [
      // The unique `_id` (with the account in the filter) serves find and update.
      // insert and findByIdempotencyKey: one request per key within the account, enforced here,
      // so concurrent duplicates converge on the one document that won the insert.
      { key: { accountId: 1, idempotencyKey: 1 }, name: 'idempotency', unique: true },
      // findByTrackingToken: the public tracking page (sparse: deliveries from before it have none).
      { key: { trackingToken: 1 }, name: 'tracking_token', unique: true, sparse: true },
      // dueForDispatch: the deliveries still looking for a driver (an equality: the local engine
      // serves ranges by scanning), of which the due ones are picked in memory.
      { key: { dispatching: 1 }, name: 'dispatching' },
    ],
  };

  private readonly deliveries: Collection<DeliveryDoc & OutboxFields>;

  constructor(db: Db) {
    this.deliveries = db.collection(DeliveriesRepository.storage.collection);
  }

  /**
   * Inserts the account's request with `events` staged in it, and gives the document as written
   * (for the outbox's flush); `duplicate` when the account already has a request with this
   * idempotency key (the caller reads it and answers as a replay).
   */
  async insert(
    owner: AccountOwner,
    doc: Omit<DeliveryDoc, 'accountId'>,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<{ inserted: DeliveryDoc & OutboxFields } | 'duplicate'> {
    const written = withOutbox(
      { ...doc, accountId: owner.accountId, dispatching: doc.dispatchAt !== null },
      events,
      now,
    );
    try {
      await this.deliveries.insertOne(written);
      return { inserted: written };
    } catch (error) {
      if (isDuplicateKeyError(error)) return 'duplicate';
      throw error;
    }
  }

  async findByIdempotencyKey(owner: AccountOwner, idempotencyKey: string): Promise<IdempotencyRecord | undefined> {
    const doc = await this.deliveries.findOne(
      { accountId: owner.accountId, idempotencyKey },
      { projection: { fingerprint: 1, accepted: 1, rejectionReason: 1, callbackSource: 1, callbackUrlSealed: 1 } },
    );
    return doc ?? undefined;
  }

  /** An accepted delivery of the account (a rejection is no delivery). */
  async find(owner: AccountOwner, providerDeliveryId: string): Promise<StoredDelivery | undefined> {
    const doc = await this.deliveries.findOne(
      { _id: providerDeliveryId, accountId: owner.accountId, accepted: true },
      WITHOUT_OUTBOX,
    );
    return doc ? deliveryOf(doc) : undefined;
  }

  /**
   * The accepted delivery behind a tracking page's address, whoever's it is: the token is the
   * capability (unguessable, 128 bits), and the page shows nothing of the account.
   */
  async findByTrackingToken(trackingToken: string): Promise<StoredDelivery | undefined> {
    const doc = await this.deliveries.findOne({ trackingToken, accepted: true }, WITHOUT_OUTBOX);
    return doc ? deliveryOf(doc) : undefined;
  }

  /**
   * Deliveries whose dispatch is due (`dispatchAt` passed), soonest first, of every account: the
   * dispatcher's work list. Each is then decided and written under its own version. Only the
   * deliveries still looking for a driver are read (a few: each has one until a driver takes it),
   * and the due ones picked among them.
   */
  async dueForDispatch(now: Date, limit: number): Promise<StoredDelivery[]> {
    // Only the times first (a burst leaves hundreds looking for a driver, few of them due), then
    // the due ones whole.
    const looking = await this.deliveries
      .find({ dispatching: true }, { projection: { _id: 1, dispatchAt: 1 } })
      .toArray();
    const due = looking
      .filter((d) => d.dispatchAt !== null && d.dispatchAt <= now)
      .sort((a, b) => a.dispatchAt!.getTime() - b.dispatchAt!.getTime())
      .slice(0, limit);
    if (due.length === 0) return [];
    const docs = await this.deliveries.find({ _id: { $in: due.map((d) => d._id) } }, WITHOUT_OUTBOX).toArray();
    const byId = new Map(docs.map((d) => [d._id, d]));
    return due.flatMap((d) => {
      const doc = byId.get(d._id);
      return doc ? [deliveryOf(doc)] : [];
    });
  }

  /**
   * Applies `changes` if the delivery is still at `version` (raising it), with `events` staged in
   * the same write; false when another change came first (the caller decides again).
   */
  async update(
    owner: AccountOwner,
    providerDeliveryId: string,
    version: number,
    changes: DeliveryChanges,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<boolean> {
    const dispatching = changes.dispatchAt === undefined ? {} : { dispatching: changes.dispatchAt !== null };
    const update = { $set: { ...changes, ...dispatching, version: version + 1 } };
    const { matchedCount } = await this.deliveries.updateOne(
      { _id: providerDeliveryId, accountId: owner.accountId, version },
      events.length > 0 ? updateWithOutbox<DeliveryDoc>(update, events, now) : update,
    );
    return matchedCount === 1;
  }
}
