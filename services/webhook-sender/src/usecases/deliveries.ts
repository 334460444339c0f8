import { createHash, randomUUID } from 'node:crypto';
import { TOPICS, type WebhookEnvelope } from '@marketplace/contracts';
import type { OutgoingEvent, PlatformTopics } from '@marketplace/events';
import type { AttemptJob } from '../adapters/attempt-queue';
import { DELIVERIES } from '../adapters/store';
import { receives, type InstallationCopy } from '../domain/installation';
import { envelopeBody, type Webhook } from '../domain/webhook-events';
import type { WebhookContext } from './context';
import { endpointOwnerOf, type Delivery, type PartnerWebhookDelivery } from './entities';
import type { AttemptTopic } from './delivery-kinds';
import { subscribers } from './installations';

/**
 * The delivery id of an event for an endpoint's owner (an installation, or a platform account): the
 * same on every redelivery of the event by Kafka.
 */
export function deliveryIdOf(eventId: string, ownerId: string): string {
  const h = createHash('sha256').update(`${eventId}\n${ownerId}`).digest('hex');
  // Shaped as a UUID (version 8, "custom"), so it reads like every other id.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The attempt message that puts a delivery's next attempt on a topic, keyed by the endpoint's
 * owner, which the scheduler shares its slots by. (Its field `installationId` holds that owner:
 * the name predates provider callbacks, and attempts already queued must still read.)
 */
export function attemptEvent(
  topic: AttemptTopic,
  delivery: Delivery,
  round: number,
  attempt: number,
  dueAt: Date,
): OutgoingEvent<PlatformTopics, AttemptTopic> {
  const owner = endpointOwnerOf(delivery);
  const job: AttemptJob = {
    deliveryId: delivery._id,
    installationId: owner,
    round,
    attempt,
    dueAt: dueAt.toISOString(),
  };
  return { topic, key: owner, type: 'webhook.attempt', data: job };
}

/**
 * Creates one delivery per receiving installation, each with its first attempt due now (staged in
 * the delivery itself, so a crash cannot lose it). The same event seen twice creates nothing new:
 * the delivery id comes from the event id and the installation.
 */
export async function createDeliveries(
  ctx: WebhookContext,
  webhook: Webhook,
  eventId: string,
  occurredAt: string,
): Promise<number> {
  const receivers =
    webhook.audience.kind === 'broadcast'
      ? await subscribers(ctx.store, webhook.tenantId, webhook.type)
      : [
          await ctx.store.installations.findForTenant({ tenantId: webhook.tenantId }, webhook.audience.installationId),
        ].filter((i): i is InstallationCopy => i !== undefined && receives(i, webhook.type));
  // Side by side: each delivery is its own document and its own first attempt.
  const created = await Promise.all(
    receivers.map((installation) =>
      createDelivery(
        ctx,
        installation,
        webhook.type,
        deliveryIdOf(eventId, installation._id),
        eventId,
        occurredAt,
        webhook.data,
      ),
    ),
  );
  return created.filter(Boolean).length;
}

export async function createDelivery(
  ctx: WebhookContext,
  installation: InstallationCopy,
  type: string,
  id: string,
  sourceEventId: string | null,
  occurredAt: string,
  data: WebhookEnvelope['data'],
): Promise<boolean> {
  const now = ctx.now();
  const delivery: PartnerWebhookDelivery = {
    _id: id,
    tenantId: installation.tenantId,
    installationId: installation._id,
    kind: 'partner-webhook',
    type,
    sourceEventId,
    occurredAt,
    body: envelopeBody(id, type, occurredAt, data),
    status: 'pending',
    round: 1,
    nextAttempt: 1,
    nextAttemptAt: now,
    attempts: [],
    reason: null,
    createdAt: now,
    updatedAt: now,
  };
  const owner = { tenantId: delivery.tenantId, installationId: delivery.installationId };
  if (
    !(await ctx.store.deliveries.create(
      owner,
      delivery,
      [attemptEvent(TOPICS.webhookAttempts, delivery, 1, 1, now)],
      now,
    ))
  )
    return false;
  await ctx.outbox.flush(DELIVERIES, id);
  return true;
}

/** system.test for one installation: the same pipeline, no business data. */
export async function createTestDelivery(ctx: WebhookContext, installation: InstallationCopy): Promise<string> {
  const id = randomUUID();
  await createDelivery(ctx, installation, 'system.test', id, null, ctx.now().toISOString(), {});
  return id;
}
