import type { Collection, Db } from 'mongodb';
import { updateWithOutbox, withOutbox, type OutboxFields } from '@marketplace/outbox';
import { isDuplicateKeyError, type RepositoryStorage, type TenantOwner } from '@marketplace/store';
import type { ProviderConnection } from '../../domain/dispatch/connection';
import { connectionChanged } from '../../domain/dispatch/dispatch-events';

/**
 * Who a connection query is for: a tenant (its own and the offered ones), or the administrator
 * (lists the offered ones, and may find and change any connection to decide a capability).
 */
export type ConnectionReader = TenantOwner | { readonly platform: true };

/** Stored with the owner as one key: the tenant's id, or `platform` for the offered ones. */
type ConnectionDoc = ProviderConnection & { ownerKey: string } & OutboxFields;
const WITHOUT_OUTBOX = { projection: { _outbox: 0, _outboxSince: 0, _outboxVersion: 0 } } as const;

const PLATFORM = 'platform';
const ownerKeyOf = (connection: ProviderConnection) => connection.tenantId ?? PLATFORM;
const keysOf = (reader: ConnectionReader): string[] =>
  'platform' in reader ? [PLATFORM] : [reader.tenantId, PLATFORM];
const strip = ({ ownerKey: _ownerKey, ...connection }: ConnectionDoc): ProviderConnection => connection;

/**
 * Collection `provider_connections`. A tenant reads its own connections and those the platform
 * offers; the administrator reads the offered ones; nobody reads another tenant's (not found).
 * Changes are compare-and-set on `version`. Every write stages the connection's snapshot for the
 * provider-connections topic in the same write (outbox; never a secret).
 */
export class ConnectionsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'provider_connections',
    // find goes by `_id`, then checks the owner; list goes by owner.
    indexes: [{ key: { ownerKey: 1 }, name: 'owner' }],
  };

  private readonly connections: Collection<ConnectionDoc>;

  constructor(db: Db) {
    this.connections = db.collection(ConnectionsRepository.storage.collection);
  }

  async insert(reader: ConnectionReader, connection: ProviderConnection): Promise<void> {
    if (!keysOf(reader).includes(ownerKeyOf(connection)) || ('tenantId' in reader && connection.tenantId === null))
      throw new Error('the connection belongs to another owner');
    await this.connections.insertOne(
      withOutbox({ ...connection, ownerKey: ownerKeyOf(connection) }, [connectionChanged(connection)]),
    );
  }

  async find(reader: ConnectionReader, connectionId: string): Promise<ProviderConnection | undefined> {
    const doc = await this.connections.findOne({ _id: connectionId }, WITHOUT_OUTBOX);
    return doc && ('platform' in reader || keysOf(reader).includes(doc.ownerKey)) ? strip(doc) : undefined;
  }

  /** Oldest first. */
  async list(reader: ConnectionReader): Promise<ProviderConnection[]> {
    const found = await Promise.all(
      keysOf(reader).map((ownerKey) => this.connections.find({ ownerKey }, WITHOUT_OUTBOX).toArray()),
    );
    return found
      .flat()
      .map(strip)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /**
   * Writes `next` if the stored one is still at `next.version - 1`: a tenant changes its own
   * connections, the administrator any (a capability decision).
   */
  async replaceIfUnchanged(reader: ConnectionReader, next: ProviderConnection): Promise<boolean> {
    const ownerKey = ownerKeyOf(next);
    if ('tenantId' in reader && ownerKey !== reader.tenantId) throw new Error('only its owner changes a connection');
    try {
      const { _id, ...fields } = next;
      const { matchedCount } = await this.connections.updateOne(
        { _id, ownerKey, version: next.version - 1 },
        updateWithOutbox<ConnectionDoc>({ $set: { ...fields, ownerKey } }, [connectionChanged(next)]),
      );
      return matchedCount === 1;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
