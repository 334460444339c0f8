import { int, oneOf } from '@marketplace/config';
import { identityPublicKeySetting } from '@marketplace/identity';

/**
 * Settings of this service beyond the platform ones (PORT, KAFKA_BROKERS, MONGO_URL, ...), read
 * and validated at start by the runtime.
 */
export const settings = {
  /** The gateway's public key: partner and tenant requests are trusted only with its signature. */
  identityPublicKey: identityPublicKeySetting(),
  /**
   * How long an assignment waits for this service's copies (orders, installations, branches) to
   * hold what was published before the request, before answering 503 `delivery.copies_behind`.
   */
  copyWaitMs: int('COPY_WAIT_MS', { default: 3_000, min: 100, max: 60_000 }),
  /**
   * Where new copies start reading the orders, installations and catalog topics: `earliest` (the
   * default: the whole history, so a new database fills itself) or `latest` (tests, whose tenants
   * are all new).
   */
  /**
   * How long a partner action's answer is kept to answer a repeat of its Idempotency-Key: the
   * gateway's retention (its setting of the same name and default), so a retry the gateway can no
   * longer answer is not answered here either, and one it could is.
   */
  idempotencyRetentionHours: int('IDEMPOTENCY_RETENTION_HOURS', { default: 24, min: 1, max: 24 * 30 }),
  copiesStart: oneOf('COPIES_START', ['earliest', 'latest'] as const, { default: 'earliest' }),
};
