import type { Collection, Db } from 'mongodb';
import type { OutgoingEvent } from '@marketplace/events';
import { updateWithOutbox } from '@marketplace/outbox';
import type { RepositoryStorage, TenantOwner } from '@marketplace/store';
import type { InstallationStatus } from '../../domain/entities';
import type { InstallationDoc } from './documents';

/** The fields of an installation a change may set (never its identity or owner). */
export type InstallationChanges = Partial<Omit<InstallationDoc, '_id' | 'tenantId' | 'appId'>>;

/**
 * The tenants' installations of apps, collection `installations`. Every method takes the tenant
 * and puts it in the filter: another tenant's installation is not found (the same 404 as a
 * missing one). The documents also carry the outbox of installation events (see docs/services/gateway-auth.md, "Events").
 */
export class InstallationsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'installations',
    indexes: [
      // The unique `_id` (implicit) serves findLive, markConnecting, revertConnecting,
      // setApiKeyId and updateWithEvent (the tenant is checked on the one candidate).
      // listLive: the tenant's installations, in installation order.
      { key: { tenantId: 1, installedAt: 1 }, name: 'tenant_installed' },
      // insert: one live installation of an app per tenant, exact under concurrency (a claim by
      // unique insert) and kept in the installation's own document, so no crash can leave the
      // two out of step (see Installation.slot).
      { key: { tenantId: 1, appId: 1, slot: 1 }, name: 'one_live_per_app', unique: true },
    ],
  };

  private readonly installations: Collection<InstallationDoc>;

  constructor(db: Db) {
    this.installations = db.collection(InstallationsRepository.storage.collection);
  }

  /** Installs; a live installation of the same app throws the duplicate-key error. */
  async insert(owner: TenantOwner, installation: Omit<InstallationDoc, 'tenantId'>): Promise<InstallationDoc> {
    const doc: InstallationDoc = { ...installation, tenantId: owner.tenantId };
    await this.installations.insertOne(doc);
    return doc;
  }

  /** The tenant's installations that are not uninstalled, oldest first (a handful per tenant). */
  async listLive(owner: TenantOwner): Promise<InstallationDoc[]> {
    return this.installations
      .find({ tenantId: owner.tenantId, status: { $ne: 'Uninstalled' } })
      .sort({ installedAt: 1 })
      .toArray();
  }

  /** The tenant's installation unless uninstalled; another tenant's is undefined. */
  async findLive(owner: TenantOwner, installationId: string): Promise<InstallationDoc | undefined> {
    return (
      (await this.installations.findOne({
        _id: installationId,
        tenantId: owner.tenantId,
        status: { $ne: 'Uninstalled' },
      })) ?? undefined
    );
  }

  /** An OAuth2 connect has started: the installation waits for the partner's callback. False when not the tenant's. */
  async markConnecting(owner: TenantOwner, installationId: string, updatedAt: Date): Promise<boolean> {
    const { matchedCount } = await this.installations.updateOne(
      { _id: installationId, tenantId: owner.tenantId },
      { $set: { status: 'Connecting', updatedAt } },
    );
    return matchedCount > 0;
  }

  /** An OAuth2 connect failed: back to `status` if it is still connecting (else nothing changes). */
  async revertConnecting(
    owner: TenantOwner,
    installationId: string,
    status: Extract<InstallationStatus, 'Installed' | 'Disconnected'>,
    updatedAt: Date,
  ): Promise<boolean> {
    const { matchedCount } = await this.installations.updateOne(
      { _id: installationId, tenantId: owner.tenantId, status: 'Connecting' },
      { $set: { status, updatedAt } },
    );
    return matchedCount > 0;
  }

  /** A rotated API key (it publishes nothing: deliveries do not depend on it). False when not the tenant's. */
  async setApiKeyId(owner: TenantOwner, installationId: string, apiKeyId: string, updatedAt: Date): Promise<boolean> {
    const { matchedCount } = await this.installations.updateOne(
      { _id: installationId, tenantId: owner.tenantId },
      { $set: { apiKeyId, updatedAt } },
    );
    return matchedCount > 0;
  }

  /** A change that matters to deliveries, with its installation event staged in the same write. False when not the tenant's. */
  async updateWithEvent(
    owner: TenantOwner,
    installationId: string,
    changes: InstallationChanges,
    event: OutgoingEvent,
    at: Date,
  ): Promise<boolean> {
    const { matchedCount } = await this.installations.updateOne(
      { _id: installationId, tenantId: owner.tenantId },
      updateWithOutbox<InstallationDoc>({ $set: changes }, [event], at),
    );
    return matchedCount > 0;
  }
}
