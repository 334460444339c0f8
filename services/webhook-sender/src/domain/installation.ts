import { AppError } from '@marketplace/errors';

/**
 * The webhook sender's own copy of an installation, kept from the gateway's installation events
 * (topic `installations`). The gateway owns installations; this copy holds only what delivery
 * needs. The signing secret stays sealed at rest and is opened for each attempt, so a rotation
 * takes effect on the next attempt.
 */
export interface InstallationCopy {
  _id: string;
  tenantId: string;
  appId: string;
  status: string;
  /** Only a connected installation receives events. */
  connected: boolean;
  /** The callback URL of the installation's contract version; null when the app has none. */
  webhookUrl: string | null;
  /** Event types the contract version subscribes to. */
  subscribedEvents: string[];
  /** The signing secret sealed under WEBHOOK_SECRET_TRANSPORT_KEY; null when there is none. */
  webhookSecretSealed: string | null;
  /**
   * The secret the last rotation replaced, sealed the same way, and until when attempts are signed
   * with it too (Standard Webhooks' `webhook-signature` only); null without an overlap. Absent from
   * copies kept before overlaps existed: read as null.
   */
  previousWebhookSecretSealed?: string | null;
  previousWebhookSecretExpiresAt?: Date | null;
  revision: number;
  changedAt: Date;
  /**
   * The sender's own, not the event's: how many of the installation's next attempts the sandbox's
   * `webhook.fail` scenario fails unsent (absent: none). On the copy the attempt reads anyway, so
   * an installation without it costs no extra read; a newer snapshot leaves it as it is.
   */
  sandboxFailuresLeft?: number;
}

/** `system.test` goes to any connected installation with a URL; it cannot be subscribed to. */
export const SYSTEM_TEST = 'system.test';

/** Whether the installation takes deliveries of this type now. */
export function receives(installation: InstallationCopy, type: string): boolean {
  if (!installation.connected || !installation.webhookUrl || !installation.webhookSecretSealed) return false;
  return type === SYSTEM_TEST || installation.subscribedEvents.includes(type);
}

/** The sealed previous secret while its overlap lasts at `now`, else undefined. */
export function previousSecretInOverlap(installation: InstallationCopy, now: Date): string | undefined {
  const { previousWebhookSecretSealed: sealed, previousWebhookSecretExpiresAt: expiresAt } = installation;
  return sealed && expiresAt && expiresAt.getTime() > now.getTime() ? sealed : undefined;
}

/** The refusal of a redelivery or a test event to an installation that does not receive (409). */
export function notReceiving(): AppError {
  return new AppError(
    'conflict',
    'webhook.installation_not_receiving',
    'The installation is not connected or has no webhook URL, so it receives no webhooks.',
  );
}
