import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { ConnectionInstallation } from '../../domain/dispatch/connection';

/**
 * Collection `connection_installations`: each tenant's installation of a provider connection (one
 * per tenant and connection, by a unique index), which deliveries are assigned to.
 */
export class ConnectionInstallationsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'connection_installations',
    indexes: [
      // insert: one installation per tenant and connection (concurrent adds converge on one).
      { key: { tenantId: 1, connectionId: 1 }, name: 'tenant_connection', unique: true },
      { key: { tenantId: 1 }, name: 'tenant' },
    ],
  };

  private readonly installations: Collection<ConnectionInstallation>;

  constructor(db: Db) {
    this.installations = db.collection(ConnectionInstallationsRepository.storage.collection);
  }

  /** Stores it, or gives the installation the tenant already has of this connection. */
  async insert(owner: TenantOwner, installation: ConnectionInstallation): Promise<ConnectionInstallation> {
    if (installation.tenantId !== owner.tenantId) throw new Error('the installation belongs to another tenant');
    try {
      await this.installations.insertOne(installation);
      return installation;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const held = await this.findByConnection(owner, installation.connectionId);
      if (!held) throw error;
      return held;
    }
  }

  async find(owner: TenantOwner, installationId: string): Promise<ConnectionInstallation | undefined> {
    return (await this.installations.findOne({ _id: installationId, tenantId: owner.tenantId })) ?? undefined;
  }

  async findByConnection(owner: TenantOwner, connectionId: string): Promise<ConnectionInstallation | undefined> {
    return (await this.installations.findOne({ tenantId: owner.tenantId, connectionId })) ?? undefined;
  }

  async list(owner: TenantOwner): Promise<ConnectionInstallation[]> {
    return this.installations.find({ tenantId: owner.tenantId }).toArray();
  }
}
