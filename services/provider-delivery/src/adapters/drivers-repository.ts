import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage } from '@marketplace/store';
import type { Driver, DriverChanges, DriverPosition, HeldOffer } from '../domain/driver';
import type { AccountOwner } from '../domain/platform-account';

/**
 * A driver as stored: the registry's fields, what they hold (an offer, a delivery) and their
 * courier credential (the token id, and the keyed hash of its secret: never the secret).
 */
export type DriverDoc = Omit<Driver, 'id'> & {
  _id: string;
  tokenId: string;
  tokenHash: string;
};

const WITHOUT_TOKEN = { projection: { tokenHash: 0 } } as const;

/** The driver without its credential (read with or without the hash). */
function driverOf(doc: Omit<DriverDoc, 'tokenHash'> & { tokenHash?: string }): Driver {
  const { _id, tokenId: _tokenId, tokenHash: _tokenHash, ...driver } = doc;
  return { id: _id, ...driver };
}

/**
 * Collection `drivers`: the registry of each account's couriers. Every method but the credential
 * lookup names the account, so another account's driver is not found. Offers and deliveries are
 * taken and given back with conditional updates: a driver holds one offer and carries one delivery
 * at a time, whatever number of dispatchers and requests race for them.
 */
export class DriversRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'drivers',
    indexes: [
      // The unique `_id` (with the account in the filter) serves find and every update.
      // list: the account's drivers, newest first.
      { key: { accountId: 1, createdAt: -1 }, name: 'account_recent' },
      // findByTokenId: every courier API request.
      { key: { tokenId: 1 }, name: 'courier_token', unique: true },
      // listFree: the dispatcher's candidates (online, carrying nothing) in the account.
      { key: { accountId: 1, online: 1, activeDeliveryId: 1 }, name: 'account_free' },
    ],
  };

  private readonly drivers: Collection<DriverDoc>;

  constructor(db: Db) {
    this.drivers = db.collection(DriversRepository.storage.collection);
  }

  async insert(driver: Driver, tokenId: string, tokenHash: string): Promise<void> {
    const { id, ...fields } = driver;
    await this.drivers.insertOne({ _id: id, ...fields, tokenId, tokenHash });
  }

  async find(owner: AccountOwner, driverId: string): Promise<Driver | undefined> {
    const doc = await this.drivers.findOne({ _id: driverId, accountId: owner.accountId }, WITHOUT_TOKEN);
    return doc ? driverOf(doc) : undefined;
  }

  async list(owner: AccountOwner, limit: number): Promise<Driver[]> {
    const docs = await this.drivers
      .find({ accountId: owner.accountId }, WITHOUT_TOKEN)
      .sort({ createdAt: -1 })
      .limit(limit)
      .toArray();
    return docs.map(driverOf);
  }

  /** The driver a courier token names, with the stored hash to check its secret against. */
  async findByTokenId(tokenId: string): Promise<{ driver: Driver; tokenHash: string } | undefined> {
    const doc = await this.drivers.findOne({ tokenId });
    return doc ? { driver: driverOf(doc), tokenHash: doc.tokenHash } : undefined;
  }

  /** Online drivers of the account carrying nothing (an offer held is checked by the caller). */
  async listFree(owner: AccountOwner, limit: number): Promise<Driver[]> {
    const docs = await this.drivers
      .find({ accountId: owner.accountId, online: true, activeDeliveryId: null }, WITHOUT_TOKEN)
      .limit(limit)
      .toArray();
    return docs.map(driverOf);
  }

  /** The driver as changed, or undefined when the account has no such driver. */
  async update(owner: AccountOwner, driverId: string, changes: DriverChanges, now: Date): Promise<Driver | undefined> {
    const doc = await this.drivers.findOneAndUpdate(
      { _id: driverId, accountId: owner.accountId },
      { $set: { ...changes, updatedAt: now } },
      { returnDocument: 'after', projection: { tokenHash: 0 } },
    );
    return doc ? driverOf(doc) : undefined;
  }

  /** A new credential; the previous one stops at once. False when the account has no such driver. */
  async replaceToken(owner: AccountOwner, driverId: string, tokenId: string, tokenHash: string, now: Date) {
    const { matchedCount } = await this.drivers.updateOne(
      { _id: driverId, accountId: owner.accountId },
      { $set: { tokenId, tokenHash, updatedAt: now } },
    );
    return matchedCount === 1;
  }

  async setPosition(owner: AccountOwner, driverId: string, position: DriverPosition): Promise<void> {
    await this.drivers.updateOne(
      { _id: driverId, accountId: owner.accountId },
      { $set: { position, updatedAt: position.at } },
    );
  }

  /**
   * Gives the driver the offer if they are still free: online, carrying nothing, holding no live
   * offer. False when another dispatcher (or the driver) came first.
   */
  async holdOffer(owner: AccountOwner, driverId: string, offer: HeldOffer, now: Date): Promise<boolean> {
    const { matchedCount } = await this.drivers.updateOne(
      {
        _id: driverId,
        accountId: owner.accountId,
        online: true,
        activeDeliveryId: null,
        $or: [{ offer: null }, { 'offer.expiresAt': { $lte: now } }],
      },
      { $set: { offer, updatedAt: now } },
    );
    return matchedCount === 1;
  }

  /** Takes back the driver's offer of this delivery (declined, timed out, or given up), if they still hold it. */
  async dropOffer(owner: AccountOwner, driverId: string, providerDeliveryId: string, now: Date): Promise<void> {
    await this.drivers.updateOne(
      { _id: driverId, accountId: owner.accountId, 'offer.providerDeliveryId': providerDeliveryId },
      { $set: { offer: null, updatedAt: now } },
    );
  }

  /** The driver takes the delivery they were offered, if the offer still runs: false otherwise. */
  async takeOffered(owner: AccountOwner, driverId: string, providerDeliveryId: string, now: Date): Promise<boolean> {
    const { matchedCount } = await this.drivers.updateOne(
      {
        _id: driverId,
        accountId: owner.accountId,
        activeDeliveryId: null,
        'offer.providerDeliveryId': providerDeliveryId,
        'offer.expiresAt': { $gt: now },
      },
      { $set: { activeDeliveryId: providerDeliveryId, offer: null, updatedAt: now } },
    );
    return matchedCount === 1;
  }

  /** The driver is free again once the delivery they carried ended (or was never theirs). */
  async release(owner: AccountOwner, driverId: string, providerDeliveryId: string, now: Date): Promise<void> {
    await this.drivers.updateOne(
      { _id: driverId, accountId: owner.accountId, activeDeliveryId: providerDeliveryId },
      { $set: { activeDeliveryId: null, updatedAt: now } },
    );
  }
}
