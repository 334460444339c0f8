import type { Collection, Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import {
  isDuplicateKeyError,
  type InstallationOwner,
  type RepositoryStorage,
  type TenantOwner,
} from '@marketplace/store';
import type { DeliveryStatus } from '../domain/delivery-status';
import type { AttemptRecord, Delivery } from '../usecases/entities';

/** A delivery as stored (collection `deliveries`): the use cases' Delivery, as it is. */
export type DeliveryDoc = Delivery;

/** Reads leave the staged events to the outbox relay. */
const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } } as const;

/** The state fields a change of a delivery sets (an attempt recorded, a new round). */
export type DeliveryStateChange = Partial<
  Pick<DeliveryDoc, 'status' | 'round' | 'nextAttempt' | 'nextAttemptAt' | 'reason' | 'updatedAt'>
>;

/**
 * The deliveries (collection `deliveries`). A delivery's next attempt is staged in the delivery
 * itself (the outbox fields), in the same write as the change that schedules it; the shared
 * outbox relay publishes and clears them by the collection's name.
 */
export class DeliveriesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'deliveries',
    indexes: [
      // The unique `_id` (implicit) serves create, findForAttempt, findForTenant, recordAttempt, startRound.
      // listForInstallation without a status: the installation's deliveries, newest first.
      { key: { tenantId: 1, installationId: 1, createdAt: -1 }, name: 'installation_recent' },
      // listForInstallation with a status (the dead letters among many delivered): only those, newest first.
      { key: { tenantId: 1, installationId: 1, status: 1, createdAt: -1 }, name: 'installation_status_recent' },
    ],
  };

  private readonly deliveries: Collection<DeliveryDoc & OutboxFields>;

  constructor(db: Db) {
    this.deliveries = db.collection(DeliveriesRepository.storage.collection);
  }

  /**
   * Inserts a new delivery of the installation with `events` (its first attempt) staged in it.
   * False when a delivery with this id exists already: the id comes from the event and the
   * installation, so the same event seen twice creates nothing (a claim by unique insert).
   */
  async create(
    owner: InstallationOwner,
    delivery: Omit<DeliveryDoc, 'tenantId' | 'installationId'>,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<boolean> {
    const doc: DeliveryDoc = { ...delivery, tenantId: owner.tenantId, installationId: owner.installationId };
    try {
      await this.deliveries.insertOne(withOutbox(doc, events, now));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /**
   * The delivery an attempt message names, without an owner: the message carries the delivery id
   * and the installation but not the tenant, and the id is globally unique (a SHA-256 of the event
   * id and the installation, or a random UUID for system.test), so no other owner's delivery can
   * answer. The owner is read from the delivery and passed to `recordAttempt`.
   */
  async findForAttempt(deliveryId: string): Promise<DeliveryDoc | undefined> {
    return (await this.deliveries.findOne({ _id: deliveryId }, WITHOUT_OUTBOX)) ?? undefined;
  }

  /** One delivery of the tenant (another tenant's is undefined: the tenant is in the filter). */
  async findForTenant(owner: TenantOwner, deliveryId: string): Promise<DeliveryDoc | undefined> {
    return (await this.deliveries.findOne({ _id: deliveryId, tenantId: owner.tenantId }, WITHOUT_OUTBOX)) ?? undefined;
  }

  /** The installation's deliveries, newest first, at most `limit`; `status` keeps only those. */
  async listForInstallation(
    owner: InstallationOwner,
    options: { status?: DeliveryStatus; limit: number },
  ): Promise<DeliveryDoc[]> {
    const filter = {
      tenantId: owner.tenantId,
      installationId: owner.installationId,
      ...(options.status ? { status: options.status } : {}),
    };
    return this.deliveries.find(filter, WITHOUT_OUTBOX).sort({ createdAt: -1 }).limit(options.limit).toArray();
  }

  /**
   * Records an attempt's outcome: sets the state, appends the attempt (none for a cancellation),
   * and stages `events` (the next attempt, if any) in the same write.
   */
  async recordAttempt(
    owner: InstallationOwner,
    deliveryId: string,
    state: DeliveryStateChange,
    attempt: AttemptRecord | undefined,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<void> {
    const update = { $set: state, ...(attempt ? { $push: { attempts: attempt } } : {}) };
    await this.deliveries.updateOne(
      { _id: deliveryId, tenantId: owner.tenantId, installationId: owner.installationId },
      events.length > 0 ? updateWithOutbox(update, events, now) : update,
    );
  }

  /** Starts a new round of a finished delivery (a redelivery), its first attempt staged in the same write. */
  async startRound(
    owner: TenantOwner,
    deliveryId: string,
    state: DeliveryStateChange,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<void> {
    await this.deliveries.updateOne(
      { _id: deliveryId, tenantId: owner.tenantId },
      updateWithOutbox<DeliveryDoc>({ $set: state }, events, now),
    );
  }
}
