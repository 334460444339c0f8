import { TOPICS, type WebhookEnvelope } from '@marketplace/contracts';
import { attemptEvent } from '../domain/attempt-event';
import { newDeliveryState, type PartnerWebhookDelivery } from '../domain/delivery';
import type { InstallationCopy } from '../domain/installation';
import { envelopeBody } from '../domain/webhook-events';
import { subjectOf } from '../domain/webhook-sequence';
import type { WebhookContext } from './context';

/** What one partner webhook is: its type, its id, the event it came from and its data. */
export interface NewWebhook {
  type: string;
  id: string;
  /** The Kafka event it came from (null for system.test). */
  sourceEventId: string | null;
  occurredAt: string;
  data: WebhookEnvelope['data'];
}

/**
 * Creates one partner webhook for the installation, its first attempt due now and staged in the
 * delivery itself (so a crash cannot lose it; the repository publishes it). False when a delivery
 * with this id exists already: the same event seen twice creates nothing.
 */
export async function createDelivery(
  ctx: WebhookContext,
  installation: InstallationCopy,
  webhook: NewWebhook,
): Promise<boolean> {
  const now = ctx.now();
  const { id, type, occurredAt } = webhook;
  const subject = subjectOf(webhook.data);
  const delivery: PartnerWebhookDelivery = {
    _id: id,
    tenantId: installation.tenantId,
    installationId: installation._id,
    kind: 'partner-webhook',
    ...(subject !== undefined && { subject }),
    type,
    sourceEventId: webhook.sourceEventId,
    occurredAt,
    body: envelopeBody(id, type, occurredAt, webhook.data),
    ...newDeliveryState(now),
  };
  const owner = { tenantId: delivery.tenantId, installationId: delivery.installationId };
  return ctx.store.deliveries.create(owner, delivery, [attemptEvent(TOPICS.webhookAttempts, delivery, 1, 1, now)], now);
}
