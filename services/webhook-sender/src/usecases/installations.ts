import type { InstallationChanged } from '@marketplace/contracts';
import type { WebhookStore } from '../adapters/store';
import { receives, type InstallationCopy } from '../domain/installation';
import type { PartitionBehind } from '@marketplace/events';

/**
 * How far the installation copy has read the installations topic, as the consumers need it
 * (`CopyProgress` of @marketplace/events asks Kafka): domain events wait until the copy holds every
 * installation event published before them.
 */
export interface InstallationsProgress {
  /** Called by the installations consumer after each message (repeats included). */
  handledUpTo(partition: number, offset: string): void;
  /** The partitions whose installation events published before `time` are not all in the copy yet; empty when caught up. */
  behindAt(time: Date): Promise<PartitionBehind[]>;
}

/**
 * Keeps the copy of an installation: a snapshot replaces the held one unless that one has a higher
 * revision (replays and duplicates change nothing). One installation's events are on one
 * partition, handled one at a time, so the update and the insert never race.
 */
export async function applyInstallationChange(store: WebhookStore, change: InstallationChanged): Promise<void> {
  await store.installations.saveIfNewer(
    { tenantId: change.tenantId, installationId: change.installationId },
    {
      appId: change.appId,
      status: change.status,
      connected: change.connected,
      webhookUrl: change.webhookUrl,
      subscribedEvents: change.subscribedEvents,
      webhookSecretSealed: change.webhookSecretSealed,
      revision: change.revision,
      changedAt: new Date(change.changedAt),
    },
  );
}

/** Every installation of the tenant that takes this type now: connected, subscribed, with a URL and a secret. */
export async function subscribers(store: WebhookStore, tenantId: string, type: string): Promise<InstallationCopy[]> {
  const all = await store.installations.listForTenant({ tenantId });
  return all.filter((installation) => receives(installation, type));
}

/**
 * When this sender (its database) first started: domain events from before are history, not
 * news, and are not sent. Stored once; every later start reads it back.
 */
export async function sendingSince(store: WebhookStore, now: Date): Promise<Date> {
  return store.meta.claimSendingSince(now);
}
