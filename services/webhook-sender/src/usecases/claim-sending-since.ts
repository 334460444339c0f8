import type { WebhookStore } from './ports';

/**
 * When this sender (its database) first started: domain events from before are history, not
 * news, and are not sent. Stored once; every later start reads it back.
 */
export async function claimSendingSince(store: WebhookStore, now: Date): Promise<Date> {
  return store.meta.claimSendingSince(now);
}
