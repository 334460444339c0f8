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

/** The attempt topics: attempts due now, then one topic per backoff tier (the delay after attempt n). */
export const ATTEMPTS_TOPIC = 'webhook-attempts';
export const RETRY_TIER_TOPICS = [1, 2, 3, 4, 5, 6, 7].map((n) => `${ATTEMPTS_TOPIC}.retry-${n}`);
export const attemptTopicAfter = (attempt: number) => RETRY_TIER_TOPICS[Math.min(attempt, RETRY_TIER_TOPICS.length) - 1]!;
