import { isDuplicateKeyError } from '@marketplace/store';
import type { WebhookCollections } from '../adapters/store';
import { receives, type InstallationCopy } from '../domain/installation';

/** Data of an `installation.changed` event (schemas/installations.schema.json): the copy's fields, with the id and time as sent. */
export type InstallationChange = Omit<InstallationCopy, '_id' | 'changedAt'> & { installationId: string; changedAt: string };

/**
 * Keeps the copy of an installation: a snapshot replaces the held one unless that one has a higher
 * revision (replays and duplicates change nothing). One installation's events are on one
 * partition, handled one at a time, so the update and the insert never race.
 */
export async function applyInstallationChange(store: WebhookCollections, change: InstallationChange): Promise<void> {
  const copy: InstallationCopy = {
    _id: change.installationId,
    tenantId: change.tenantId,
    appId: change.appId,
    status: change.status,
    connected: change.connected,
    webhookUrl: change.webhookUrl,
    subscribedEvents: change.subscribedEvents,
    webhookSecretSealed: change.webhookSecretSealed,
    revision: change.revision,
    changedAt: new Date(change.changedAt),
  };
  const { matchedCount } = await store.installations.updateOne({ _id: copy._id, revision: { $lt: copy.revision } }, { $set: copy });
  if (matchedCount > 0) return;
  try {
    await store.installations.insertOne(copy);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error; // a later revision is held already
  }
}

/** One installation of a tenant (another tenant's is undefined: the tenant is in the filter). */
export async function findInstallation(store: WebhookCollections, tenantId: string, installationId: string): Promise<InstallationCopy | undefined> {
  return (await store.installations.findOne({ _id: installationId, tenantId })) ?? undefined;
}

/** Every installation of the tenant that takes this type now: connected, subscribed, with a URL and a secret. */
export async function subscribers(store: WebhookCollections, tenantId: string, type: string): Promise<InstallationCopy[]> {
  const all = await store.installations.find({ tenantId }).toArray();
  return all.filter((installation) => receives(installation, type));
}

/**
 * When this sender (its database) first started: domain events from before are history, not
 * news, and are not sent. Stored once; every later start reads it back.
 */
export async function sendingSince(store: WebhookCollections, now: Date): Promise<Date> {
  try {
    await store.meta.insertOne({ _id: 'sending-since', at: now });
    return now;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return (await store.meta.findOne({ _id: 'sending-since' }))!.at;
  }
}
