import type { Collection, Db } from 'mongodb';
import {
  isDuplicateKeyError,
  type InstallationOwner,
  type RepositoryStorage,
  type TenantOwner,
} from '@marketplace/store';

/**
 * Claims are documents whose `_id` is the claimed value, built here from the owner: a unique insert
 * decides a race between instances exactly, on every engine, and the owner is part of every key.
 */

/** An installation's external order id, claimed by the order that carries it (`_id`: installation:externalOrderId). */
export interface ExternalOrderClaimDoc {
  _id: string;
  orderId: string;
  idempotencyKey: string;
  createdAt: Date;
}

/** A tenant's order number, claimed by one order (`_id`: tenant:number). */
export interface OrderNumberClaimDoc {
  _id: string;
  orderId: string;
}

/** The highest order number a tenant is known to have used (`_id`: tenant): a starting point, the claims decide. */
export interface OrderCounterDoc {
  _id: string;
  last: number;
}

const externalId = (owner: InstallationOwner, externalOrderId: string) => `${owner.installationId}:${externalOrderId}`;

async function inserted(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** External order ids (per installation), order numbers and their counters (per tenant). */
export class OrderClaimsRepository {
  static readonly storages: readonly RepositoryStorage[] = [
    // Every method goes by `_id` (the claimed value): no other index.
    { collection: 'external_order_ids', indexes: [] },
    { collection: 'order_numbers', indexes: [] },
    { collection: 'order_counters', indexes: [] },
  ];

  private readonly externalOrderIds: Collection<ExternalOrderClaimDoc>;
  private readonly orderNumbers: Collection<OrderNumberClaimDoc>;
  private readonly orderCounters: Collection<OrderCounterDoc>;

  constructor(db: Db) {
    const [externalOrderIds, orderNumbers, orderCounters] = OrderClaimsRepository.storages.map((s) => s.collection);
    this.externalOrderIds = db.collection(externalOrderIds!);
    this.orderNumbers = db.collection(orderNumbers!);
    this.orderCounters = db.collection(orderCounters!);
  }

  /** Claims the installation's external order id for an order; false when it is claimed already. */
  claimExternalOrderId(
    owner: InstallationOwner,
    externalOrderId: string,
    claim: Omit<ExternalOrderClaimDoc, '_id'>,
  ): Promise<boolean> {
    return inserted(this.externalOrderIds.insertOne({ _id: externalId(owner, externalOrderId), ...claim }));
  }

  async findExternalOrderClaim(
    owner: InstallationOwner,
    externalOrderId: string,
  ): Promise<ExternalOrderClaimDoc | undefined> {
    return (await this.externalOrderIds.findOne({ _id: externalId(owner, externalOrderId) })) ?? undefined;
  }

  /** Gives the claim to another order, if `fromOrderId` still holds it; false when it does not. */
  async takeOverExternalOrderClaim(
    owner: InstallationOwner,
    externalOrderId: string,
    fromOrderId: string,
    claim: Omit<ExternalOrderClaimDoc, '_id'>,
  ): Promise<boolean> {
    const { modifiedCount } = await this.externalOrderIds.updateOne(
      { _id: externalId(owner, externalOrderId), orderId: fromOrderId },
      { $set: claim },
    );
    return modifiedCount === 1;
  }

  /** Frees the external order id, if `orderId` holds it; true when it did. */
  async releaseExternalOrderClaim(
    owner: InstallationOwner,
    externalOrderId: string,
    orderId: string,
  ): Promise<boolean> {
    const { deletedCount } = await this.externalOrderIds.deleteOne({
      _id: externalId(owner, externalOrderId),
      orderId,
    });
    return deletedCount === 1;
  }

  /** Claims the tenant's order number for an order; false when it is taken. */
  claimOrderNumber(owner: TenantOwner, orderNumber: number, orderId: string): Promise<boolean> {
    return inserted(this.orderNumbers.insertOne({ _id: `${owner.tenantId}:${orderNumber}`, orderId }));
  }

  /** The tenant's counter: the highest order number known to be used, or undefined before the first. */
  async findOrderCounter(owner: TenantOwner): Promise<number | undefined> {
    return (await this.orderCounters.findOne({ _id: owner.tenantId }))?.last;
  }

  /** Raises the tenant's counter to `orderNumber` (never lowers it). */
  async raiseOrderCounter(owner: TenantOwner, orderNumber: number): Promise<void> {
    await this.orderCounters.updateOne({ _id: owner.tenantId }, { $max: { last: orderNumber } }, { upsert: true });
  }
}
