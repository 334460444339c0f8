import type { WebhookAttempt } from '@marketplace/contracts';
import { endpointOwnerOf, type Delivery } from './delivery';
import type { AttemptTopic } from './retry-tiers';

/** An attempt message as staged in its delivery (the outbox publishes it on its tier's topic). */
export interface AttemptEvent {
  topic: AttemptTopic;
  key: string;
  type: 'webhook.attempt';
  data: WebhookAttempt;
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
): AttemptEvent {
  const owner = endpointOwnerOf(delivery);
  const job: WebhookAttempt = {
    deliveryId: delivery._id,
    installationId: owner,
    round,
    attempt,
    dueAt: dueAt.toISOString(),
  };
  return { topic, key: owner, type: 'webhook.attempt', data: job };
}
