import type { Collection, Db } from 'mongodb';
import type { ProviderEventTypeName } from '@marketplace/contracts';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox, type OutboxFields } from '@marketplace/outbox';
import type { RepositoryStorage } from '@marketplace/store';
import type {
  AccountOwner,
  Capabilities,
  PlatformAccount,
  RateLimit,
  SimulatorSettings,
} from '../domain/platform-account';
import { defaultEventTypes, defaultRateLimit, SIMULATOR_OFF } from '../domain/platform-account';
import type { ServiceArea } from '../domain/platform-account';

/**
 * A platform account as stored. The service area is kept as JSON text: its nested arrays are never
 * queried, and a text field keeps the driver's filter types (and the local engine) away from them.
 * The webhook secret is sealed (AES-256-GCM, bound to the account): signing needs the plain value.
 */
export interface PlatformAccountDoc {
  _id: string;
  name: string;
  webhookUrl: string | null;
  capabilities: Capabilities;
  serviceAreaJson: string;
  /** Absent on accounts stored before rate limits existed: they get the default. */
  rateLimit?: RateLimit;
  /** Absent on accounts stored before the simulator existed: off. */
  simulator?: SimulatorSettings;
  /** Absent on accounts stored before the choice existed: the spec's table. */
  eventTypes?: ProviderEventTypeName[];
  webhookSecretSealed: string;
  /** When the secret was minted (the account's creation, or its last rotation): the newest wins downstream. */
  webhookSecretRotatedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** Fields an administrator changes. */
export type AccountChanges = Partial<
  Pick<
    PlatformAccount,
    'name' | 'webhookUrl' | 'capabilities' | 'serviceArea' | 'rateLimit' | 'simulator' | 'eventTypes'
  >
>;

const WITHOUT_SECRET = {
  projection: { webhookSecretSealed: 0, webhookSecretRotatedAt: 0, _outbox: 0, _outboxSince: 0, _outboxVersion: 0 },
} as const;

/** The account's signing secret as stored: sealed, and when it was minted. */
export interface SealedWebhookSecret {
  sealed: string;
  rotatedAt: Date;
}

function accountOf(doc: Omit<PlatformAccountDoc, 'webhookSecretSealed'>): PlatformAccount {
  return {
    id: doc._id,
    name: doc.name,
    webhookUrl: doc.webhookUrl,
    capabilities: doc.capabilities,
    serviceArea: JSON.parse(doc.serviceAreaJson) as ServiceArea,
    rateLimit: doc.rateLimit ?? defaultRateLimit(),
    simulator: doc.simulator ?? SIMULATOR_OFF,
    eventTypes: doc.eventTypes ?? defaultEventTypes(),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** The platform accounts, collection `platform_accounts` (`_id` the account id). */
export class PlatformAccountsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'platform_accounts',
    indexes: [
      // The unique `_id` serves find, update, replaceWebhookSecret and findSealedWebhookSecret.
      // listAll: on MongoDB 7 the sort and the limit walk this index (see the repository test).
      { key: { createdAt: 1, _id: 1 }, name: 'created' },
      // listSimulated: the few accounts with the simulator on.
      { key: { 'simulator.enabled': 1 }, name: 'simulated' },
    ],
  };

  private readonly accounts: Collection<PlatformAccountDoc & OutboxFields>;

  constructor(db: Db) {
    this.accounts = db.collection(PlatformAccountsRepository.storage.collection);
  }

  async insert(account: PlatformAccount, webhookSecretSealed: string): Promise<void> {
    const { id, serviceArea, ...fields } = account;
    await this.accounts.insertOne({
      _id: id,
      ...fields,
      serviceAreaJson: JSON.stringify(serviceArea),
      webhookSecretSealed,
      webhookSecretRotatedAt: account.createdAt,
    });
  }

  async find(owner: AccountOwner): Promise<PlatformAccount | undefined> {
    const doc = await this.accounts.findOne({ _id: owner.accountId }, WITHOUT_SECRET);
    return doc ? accountOf(doc) : undefined;
  }

  /** The accounts whose courier simulator is on (the simulator's work list; a handful). */
  async listSimulated(): Promise<PlatformAccount[]> {
    const docs = await this.accounts.find({ 'simulator.enabled': true }, WITHOUT_SECRET).limit(1_000).toArray();
    return docs.map(accountOf);
  }

  /** Administrators' list: every account, oldest first, at most `limit`. */
  async listAll(limit: number): Promise<PlatformAccount[]> {
    const docs = await this.accounts.find({}, WITHOUT_SECRET).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray();
    return docs.map(accountOf);
  }

  /** Applies the changes; the account as changed, or undefined when there is no such account. */
  async update(owner: AccountOwner, changes: AccountChanges, updatedAt: Date): Promise<PlatformAccount | undefined> {
    const { serviceArea, ...rest } = changes;
    const $set: Partial<PlatformAccountDoc> = { ...rest, updatedAt };
    if (serviceArea !== undefined) $set.serviceAreaJson = JSON.stringify(serviceArea);
    const { matchedCount } = await this.accounts.updateOne({ _id: owner.accountId }, { $set });
    return matchedCount === 1 ? this.find(owner) : undefined;
  }

  /**
   * Stores a new sealed webhook secret, with `events` (the rotation, for the webhook sender) staged
   * in the same write; false when there is no such account.
   */
  async replaceWebhookSecret(
    owner: AccountOwner,
    sealed: string,
    rotatedAt: Date,
    events: OutgoingEvent[],
  ): Promise<boolean> {
    const { matchedCount } = await this.accounts.updateOne(
      { _id: owner.accountId },
      updateWithOutbox<PlatformAccountDoc>(
        { $set: { webhookSecretSealed: sealed, webhookSecretRotatedAt: rotatedAt, updatedAt: rotatedAt } },
        events,
        rotatedAt,
      ),
    );
    return matchedCount === 1;
  }

  /**
   * What every event of the account's deliveries needs (one read): the sealed webhook secret and the
   * event types its platform receives; undefined when there is no such account.
   */
  async findPublishing(
    owner: AccountOwner,
  ): Promise<{ secret: SealedWebhookSecret; eventTypes: readonly ProviderEventTypeName[] } | undefined> {
    const doc = await this.accounts.findOne(
      { _id: owner.accountId },
      { projection: { webhookSecretSealed: 1, webhookSecretRotatedAt: 1, createdAt: 1, eventTypes: 1 } },
    );
    return doc
      ? {
          secret: { sealed: doc.webhookSecretSealed, rotatedAt: doc.webhookSecretRotatedAt ?? doc.createdAt },
          eventTypes: doc.eventTypes ?? defaultEventTypes(),
        }
      : undefined;
  }

  /** The sealed webhook secret, for signing; undefined when there is no such account. */
  async findSealedWebhookSecret(owner: AccountOwner): Promise<SealedWebhookSecret | undefined> {
    const doc = await this.accounts.findOne(
      { _id: owner.accountId },
      { projection: { webhookSecretSealed: 1, webhookSecretRotatedAt: 1, createdAt: 1 } },
    );
    return doc
      ? { sealed: doc.webhookSecretSealed, rotatedAt: doc.webhookSecretRotatedAt ?? doc.createdAt }
      : undefined;
  }
}
