import { TOPICS } from '@marketplace/contracts';

/**
 * The retry tiers: a delivery's attempts wait on Kafka topics, one per backoff tier, each read by
 * the attempt queue (adapters/attempt-queue.ts) and held until due. How long each waits is the
 * kind's retry policy (retry-policy.ts); which topic it waits on is decided here.
 */

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

/**
 * Which tier an attempt was read from, as a bounded metric label: `first` (webhook-attempts), then
 * `retry-1` … `retry-7` (the tier topic attemptTopicAfter chose for it).
 */
export const attemptTierOf = (attempt: number): string =>
  attempt <= 1 ? 'first' : `retry-${Math.min(attempt - 1, RETRY_TIER_TOPICS.length)}`;
