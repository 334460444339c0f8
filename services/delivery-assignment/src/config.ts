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
  copiesStart: oneOf('COPIES_START', ['earliest', 'latest'] as const, { default: 'earliest' }),
};
