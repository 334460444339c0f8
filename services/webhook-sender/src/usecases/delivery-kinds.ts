import { TOPICS } from '@marketplace/contracts';
import { PARTNER_WEBHOOK_POLICY, scaledPolicy, type RetryPolicy } from '../domain/retry-policy';
import { marketplaceSigner, type Signer } from '../domain/signing';

/**
 * How each kind of delivery is signed and retried. Partner webhooks follow the Partner API; the
 * delivery-provider contract's callbacks will add their own kind here (their scheme and schedule)
 * and reuse everything else.
 */
export interface DeliveryKind {
  signer: Signer;
  policy: RetryPolicy;
}

export type DeliveryKinds = Record<'partner-webhook', DeliveryKind>;

/** `timeScale` divides every delay (tests and demos run the whole schedule in seconds). */
export function deliveryKinds(timeScale: number): DeliveryKinds {
  return { 'partner-webhook': { signer: marketplaceSigner, policy: scaledPolicy(PARTNER_WEBHOOK_POLICY, timeScale) } };
}

/** One topic per backoff tier: tier n holds the attempts scheduled after attempt n failed. */
export const RETRY_TIER_TOPICS = [
  TOPICS.webhookAttemptsRetry1,
  TOPICS.webhookAttemptsRetry2,
  TOPICS.webhookAttemptsRetry3,
  TOPICS.webhookAttemptsRetry4,
  TOPICS.webhookAttemptsRetry5,
  TOPICS.webhookAttemptsRetry6,
  TOPICS.webhookAttemptsRetry7,
] as const;
/** The attempt topics: attempts due now, then the backoff tiers. */
export const ATTEMPT_TOPICS = [TOPICS.webhookAttempts, ...RETRY_TIER_TOPICS] as const;
export type AttemptTopic = (typeof ATTEMPT_TOPICS)[number];
export const attemptTopicAfter = (attempt: number): AttemptTopic =>
  RETRY_TIER_TOPICS[Math.min(attempt, RETRY_TIER_TOPICS.length) - 1]!;
