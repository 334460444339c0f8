import type { Collection, Db, Filter } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import {
  isDuplicateKeyError,
  type InstallationOwner,
  type RepositoryStorage,
  type TenantOwner,
} from '@marketplace/store';
import type { DeliveryStatus } from '../domain/delivery-status';
import type { AccountOwner } from '../domain/provider-callback';
import type {
  AttemptRecord,
  Delivery,
  DeliveryStateChange,
  PartnerWebhookDelivery,
  ProviderCallbackDelivery,
} from '../domain/delivery';

/** A delivery as stored (collection `deliveries`): the use cases' Delivery, as it is. */
export type DeliveryDoc = Delivery;

/** Reads leave the staged events to the outbox relay. */
const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } } as const;

export type { DeliveryStateChange };

/**
 * Publishes a document's staged events right after its write (the outbox relay's fast path; its
 * sweep catches whatever a crash or a failed flush leaves behind).
 */
export interface OutboxFlush {
  flush(collection: string, id: string): Promise<unknown>;
  /** The same for a document just inserted, as written: published without reading it back. */
  flushWritten(collection: string, doc: OutboxFields & { _id: unknown }): Promise<unknown>;
}

/** Whose delivery a write is about: a tenant's (or one of its installations'), or a platform account's. */
export type DeliveryOwner = TenantOwner | InstallationOwner | AccountOwner;

type Stored = DeliveryDoc & OutboxFields;

const PARTNER = 'partner-webhook' as const;
const PROVIDER = 'provider-callback' as const;

/** The owner in a filter. The kind too, so that a tenant's query can never match a provider callback. */
function ownerFilter(owner: DeliveryOwner): Filter<Stored> {
  if ('accountId' in owner) return { kind: PROVIDER, accountId: owner.accountId };
  if ('installationId' in owner)
    return { kind: PARTNER, tenantId: owner.tenantId, installationId: owner.installationId };
  return { kind: PARTNER, tenantId: owner.tenantId };
}

/**
 * Inserts a delivery with its staged events: the document as written, or null when its id is taken
 * (a claim by unique insert).
 */
async function insert(deliveries: Collection<Stored>, doc: DeliveryDoc, events: OutgoingEvent[], now: Date) {
  try {
    const written = withOutbox(doc, events, now);
    await deliveries.insertOne(written);
    return written;
  } catch (error) {
    if (isDuplicateKeyError(error)) return null;
    throw error;
  }
}

/**
 * The deliveries of both kinds (collection `deliveries`). A delivery's next attempt is staged in
 * the delivery itself (the outbox fields), in the same write as the change that schedules it; the
 * shared outbox relay publishes and clears them by the collection's name. Partner webhooks belong
 * to an installation of a tenant, provider callbacks to a platform account: every owned query puts
 * its owner and kind in the filter.
 */
export class DeliveriesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'deliveries',
    indexes: [
      // The unique `_id` (implicit) serves create, createForAccount, findForAttempt, findForTenant,
      // findProviderCallback, markSending, recordAttempt, startRound.
      // listForInstallation without a status: the installation's deliveries, newest first.
      { key: { tenantId: 1, installationId: 1, createdAt: -1 }, name: 'installation_recent' },
      // listForInstallation with a status (the dead letters among many delivered): only those, newest first.
      { key: { tenantId: 1, installationId: 1, status: 1, createdAt: -1 }, name: 'installation_status_recent' },
      // listForAccount without a filter: the account's provider callbacks, newest first.
      { key: { accountId: 1, createdAt: -1 }, name: 'account_recent' },
      // listForAccount with a status only.
      { key: { accountId: 1, status: 1, createdAt: -1 }, name: 'account_status_recent' },
      // listForAccount with a provider delivery (and a status, among that delivery's few events).
      { key: { accountId: 1, providerDeliveryId: 1, createdAt: -1 }, name: 'provider_delivery_recent' },
      // hasTerminalEvent (redelivery), terminalEventSent (before every attempt of a nonterminal
      // callback) and hasUnattemptedNonterminal (before a terminal callback's first attempt): the
      // terminal rule, among one delivery's few events.
      { key: { accountId: 1, providerDeliveryId: 1, terminal: 1 }, name: 'provider_delivery_terminal' },
      // pendingOfSubject (before each attempt of a partner webhook that is not the first of its
      // order): the per-order sequence, among one order's few events to one installation.
      {
        key: { tenantId: 1, installationId: 1, subject: 1, status: 1, createdAt: 1 },
        name: 'installation_subject_open',
      },
    ],
  };

  private readonly deliveries: Collection<Stored>;

  /**
   * With `outbox`, every write that stages events publishes them at once (the collection's name
   * stays here); without it, they wait for the relay's sweep.
   */
  constructor(
    db: Db,
    private readonly outbox?: OutboxFlush,
  ) {
    this.deliveries = db.collection(DeliveriesRepository.storage.collection);
  }

  /**
   * Publishes the events just staged in the delivery, when there are any and an outbox to flush.
   * An ES private field, not a method: the repository index test lists every method as a query.
   */
  readonly #flushed = async (deliveryId: string, events: readonly OutgoingEvent[]): Promise<void> => {
    if (this.outbox && events.length > 0) await this.outbox.flush(DeliveriesRepository.storage.collection, deliveryId);
  };

  /**
   * The same for a delivery just inserted: its events go out as written, without a read-back, and
   * their clear is batched with other new deliveries' (the relay's flushWritten).
   */
  readonly #flushedInsert = async (written: OutboxFields & { _id: string }, events: readonly OutgoingEvent[]) => {
    if (this.outbox && events.length > 0)
      await this.outbox.flushWritten(DeliveriesRepository.storage.collection, written);
  };

  /**
   * Inserts a new partner webhook of the installation with `events` (its first attempt) staged in
   * it, and publishes them. False when a delivery with this id exists already: the id comes from the event and the
   * installation, so the same event seen twice creates nothing (a claim by unique insert).
   */
  async create(
    owner: InstallationOwner,
    delivery: Omit<PartnerWebhookDelivery, 'tenantId' | 'installationId'>,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<boolean> {
    const doc = { ...delivery, tenantId: owner.tenantId, installationId: owner.installationId };
    const written = await insert(this.deliveries, doc, events, now);
    if (!written) return false;
    await this.#flushedInsert(written, events);
    return true;
  }

  /** The same for a provider callback of the platform account (its id comes from the event and the account). */
  async createForAccount(
    owner: AccountOwner,
    delivery: Omit<ProviderCallbackDelivery, 'accountId'>,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<boolean> {
    const written = await insert(this.deliveries, { ...delivery, accountId: owner.accountId }, events, now);
    if (!written) return false;
    await this.#flushedInsert(written, events);
    return true;
  }

  /**
   * The delivery an attempt message names, without an owner: the message carries the delivery id
   * and the endpoint's owner but not the tenant, and the id is globally unique (a SHA-256 of the
   * event id and the installation or account, or a random UUID for system.test), so no other
   * owner's delivery can answer. The owner is read from the delivery and passed to `recordAttempt`.
   */
  async findForAttempt(deliveryId: string): Promise<DeliveryDoc | undefined> {
    return (await this.deliveries.findOne({ _id: deliveryId }, WITHOUT_OUTBOX)) ?? undefined;
  }

  /**
   * One partner webhook of the tenant, or of one of its installations when the owner names one
   * (another tenant's or installation's, or a provider callback, is undefined).
   */
  async findForTenant(
    owner: TenantOwner | InstallationOwner,
    deliveryId: string,
  ): Promise<PartnerWebhookDelivery | undefined> {
    const found = await this.deliveries.findOne({ _id: deliveryId, ...ownerFilter(owner) }, WITHOUT_OUTBOX);
    return found?.kind === PARTNER ? found : undefined;
  }

  /**
   * One provider callback, for the administrators of provider-delivery, who see every account's
   * (a partner webhook with this id is undefined).
   */
  async findProviderCallback(deliveryId: string): Promise<ProviderCallbackDelivery | undefined> {
    const found = await this.deliveries.findOne({ _id: deliveryId, kind: PROVIDER }, WITHOUT_OUTBOX);
    return found?.kind === PROVIDER ? found : undefined;
  }

  /** The installation's partner webhooks, newest first, at most `limit`; `status` keeps only those. */
  async listForInstallation(
    owner: InstallationOwner,
    options: { status?: DeliveryStatus; limit: number },
  ): Promise<PartnerWebhookDelivery[]> {
    const filter = { ...ownerFilter(owner), ...(options.status ? { status: options.status } : {}) };
    const found = await this.deliveries
      .find(filter, WITHOUT_OUTBOX)
      .sort({ createdAt: -1 })
      .limit(options.limit)
      .toArray();
    return found.filter((d): d is PartnerWebhookDelivery => d.kind === PARTNER);
  }

  /**
   * The account's provider callbacks, newest first, at most `limit`; `providerDeliveryId` keeps one
   * provider delivery's, `status` only those.
   */
  async listForAccount(
    owner: AccountOwner,
    options: { providerDeliveryId?: string; status?: DeliveryStatus; limit: number },
  ): Promise<ProviderCallbackDelivery[]> {
    const filter = {
      ...ownerFilter(owner),
      ...(options.providerDeliveryId ? { providerDeliveryId: options.providerDeliveryId } : {}),
      ...(options.status ? { status: options.status } : {}),
    };
    const found = await this.deliveries
      .find(filter, WITHOUT_OUTBOX)
      .sort({ createdAt: -1 })
      .limit(options.limit)
      .toArray();
    return found.filter((d): d is ProviderCallbackDelivery => d.kind === PROVIDER);
  }

  /**
   * Whether a terminal event of the provider delivery was sent, or may have been: its first request
   * was marked as leaving (`markSending`), or an attempt of it was recorded (callbacks attempted
   * before the mark existed have only that).
   */
  async terminalEventSent(owner: AccountOwner, providerDeliveryId: string): Promise<boolean> {
    const found = await this.deliveries.findOne(
      {
        ...ownerFilter(owner),
        providerDeliveryId,
        terminal: true,
        $or: [{ sendStartedAt: { $exists: true } }, { 'attempts.0': { $exists: true } }],
      },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }

  /**
   * Marks a terminal callback as sent before its request leaves (`sendStartedAt`, kept from the
   * first time): from then on `terminalEventSent` holds, whatever becomes of the request.
   */
  async markSending(owner: AccountOwner, deliveryId: string, at: Date): Promise<void> {
    await this.deliveries.updateOne(
      { _id: deliveryId, ...ownerFilter(owner), terminal: true, sendStartedAt: { $exists: false } },
      { $set: { sendStartedAt: at } },
    );
  }

  /** Whether a nonterminal event of the provider delivery still waits for its first attempt. */
  async pendingOfSubject(
    owner: InstallationOwner,
    subject: string,
    createdAt: Date,
  ): Promise<Pick<PartnerWebhookDelivery, '_id' | 'createdAt' | 'nextAttemptAt'>[]> {
    // A few at most: one order's events to one installation that are still pending.
    const found = await this.deliveries
      .find(
        { ...ownerFilter(owner), subject, status: 'pending', createdAt: { $lte: createdAt } },
        { projection: { _id: 1, createdAt: 1, nextAttemptAt: 1 }, limit: 20 },
      )
      .toArray();
    return found.map((d) => ({ _id: d._id, createdAt: d.createdAt, nextAttemptAt: d.nextAttemptAt }));
  }

  async hasUnattemptedNonterminal(owner: AccountOwner, providerDeliveryId: string): Promise<boolean> {
    const found = await this.deliveries.findOne(
      {
        ...ownerFilter(owner),
        providerDeliveryId,
        terminal: false,
        status: 'pending',
        'attempts.0': { $exists: false },
      },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }

  /** Whether a terminal event of the provider delivery was received (a callback exists for one). */
  async hasTerminalEvent(owner: AccountOwner, providerDeliveryId: string): Promise<boolean> {
    const found = await this.deliveries.findOne(
      { ...ownerFilter(owner), providerDeliveryId, terminal: true },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }

  /**
   * Records an attempt's outcome: sets the state, appends the attempt (none for a cancellation),
   * and stages `events` (the next attempt, if any) in the same write, then publishes them.
   */
  async recordAttempt(
    owner: InstallationOwner | AccountOwner,
    deliveryId: string,
    state: DeliveryStateChange,
    attempt: AttemptRecord | undefined,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<void> {
    const update = { $set: state, ...(attempt ? { $push: { attempts: attempt } } : {}) };
    await this.deliveries.updateOne(
      { _id: deliveryId, ...ownerFilter(owner) },
      events.length > 0 ? updateWithOutbox(update, events, now) : update,
    );
    await this.#flushed(deliveryId, events);
  }

  /** Starts a new round of a finished delivery (a redelivery), its first attempt staged in the same write. */
  async startRound(
    owner: TenantOwner | AccountOwner,
    deliveryId: string,
    state: DeliveryStateChange,
    events: OutgoingEvent[],
    now: Date,
  ): Promise<void> {
    await this.deliveries.updateOne(
      { _id: deliveryId, ...ownerFilter(owner) },
      updateWithOutbox<DeliveryDoc>({ $set: state }, events, now),
    );
    await this.#flushed(deliveryId, events);
  }
}
