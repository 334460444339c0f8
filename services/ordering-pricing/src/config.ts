import { int, oneOf } from '@marketplace/config';
import { customerDataTransportKeySetting, identityPublicKeySetting } from '@marketplace/identity';

/**
 * Settings of this service beyond the platform ones (PORT, KAFKA_BROKERS, MONGO_URL, ...), read
 * and validated at start by the runtime.
 */
export const settings = {
  /** The gateway's public key: partner and tenant requests are trusted only with its signature. */
  identityPublicKey: identityPublicKeySetting(),
  /**
   * Seals a Delivery order's drop-off (customer and address) on its `orders.created` event, for
   * delivery-assignment alone to open when it dispatches the order to a delivery provider.
   */
  customerDataTransportKey: customerDataTransportKeySetting(),
  /** How long a change of an order waits for another change of the same order before answering 503. */
  orderLockWaitMs: int('ORDER_LOCK_WAIT_MS', { default: 5_000, min: 100, max: 60_000 }),
  /**
   * Where a new catalog copy starts reading the catalog topic: `earliest` (the default: the whole
   * history, so a new database fills itself) or `latest` (tests, whose tenants are all new).
   */
  catalogCopyStart: oneOf('CATALOG_COPY_START', ['earliest', 'latest'] as const, { default: 'earliest' }),
  /**
   * Where a new copy of the deliveries topic starts: `earliest` (the default: the topic is kept
   * forever, so a new database learns every order's live assignment) or `latest` (tests, whose
   * orders are all new).
   */
  deliveryCopyStart: oneOf('DELIVERY_COPY_START', ['earliest', 'latest'] as const, { default: 'earliest' }),
};
