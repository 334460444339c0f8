import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { StoredDeliveryZone } from '../domain/delivery-zone';

/**
 * The geometry is kept as JSON text, a leftover of FerretDB 1.x (it stored no arrays nested
 * directly in arrays, which every GeoJSON polygon is). Neither MongoDB nor the local engine needs
 * it any more, and nothing queries the geometry, so the format stays as stored.
 */
export type DeliveryZoneDoc = StoredDeliveryZone;

/** The tenant's delivery zones. */
export class DeliveryZonesRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'delivery_zones',
    indexes: [
      // listByName (the tenant's zones, or one branch's, by name); the others go by `_id`.
      { key: { tenantId: 1, branchId: 1, name: 1 }, name: 'tenant_branch_name' },
    ],
  };

  private readonly zones: Collection<DeliveryZoneDoc>;

  constructor(db: Db) {
    this.zones = db.collection(DeliveryZonesRepository.storage.collection);
  }

  async findById(owner: TenantOwner, zoneId: string): Promise<DeliveryZoneDoc | undefined> {
    return (await this.zones.findOne({ _id: zoneId, tenantId: owner.tenantId })) ?? undefined;
  }

  /** The tenant's zones (of one branch, if given), by name. */
  listByName(owner: TenantOwner, branchId?: string): Promise<DeliveryZoneDoc[]> {
    return this.zones
      .find({ tenantId: owner.tenantId, ...(branchId !== undefined ? { branchId } : {}) })
      .sort({ name: 1 })
      .toArray();
  }

  async insert(owner: TenantOwner, zone: DeliveryZoneDoc): Promise<void> {
    if (zone.tenantId !== owner.tenantId) throw new Error('the zone belongs to another tenant');
    await this.zones.insertOne(zone);
  }

  /** Replaces the tenant's zone; false when there is no such zone. */
  async replace(owner: TenantOwner, zone: DeliveryZoneDoc): Promise<boolean> {
    if (zone.tenantId !== owner.tenantId) throw new Error('the zone belongs to another tenant');
    const { matchedCount } = await this.zones.replaceOne({ _id: zone._id, tenantId: owner.tenantId }, zone);
    return matchedCount === 1;
  }

  /** Deletes the tenant's zone; false when there is no such zone. */
  async delete(owner: TenantOwner, zoneId: string): Promise<boolean> {
    const { deletedCount } = await this.zones.deleteOne({ _id: zoneId, tenantId: owner.tenantId });
    return deletedCount === 1;
  }
}
