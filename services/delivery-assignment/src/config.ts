import { base64Key, bool, int, oneOf, optionalStr } from '@marketplace/config';
import { customerDataTransportKeySetting, identityPublicKeySetting } from '@marketplace/identity';

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
   * How long a partner action's answer is kept to answer a repeat of its Idempotency-Key: the
   * gateway's retention (its setting of the same name and default), so a retry the gateway can no
   * longer answer is not answered here either, and one it could is.
   */
  idempotencyRetentionHours: int('IDEMPOTENCY_RETENTION_HOURS', { default: 24, min: 1, max: 24 * 30 }),
  /**
   * Where new copies start reading the orders, installations and catalog topics: `earliest` (the
   * default: the whole history, so a new database fills itself) or `latest` (tests, whose tenants
   * are all new).
   */
  copiesStart: oneOf('COPIES_START', ['earliest', 'latest'] as const, { default: 'earliest' }),

  // ---- The marketplace as a platform of the Standard Delivery Provider Contract ----
  /** Opens a Delivery order's drop-off (sealed by ordering-pricing) to build a provider's create request. */
  customerDataTransportKey: customerDataTransportKeySetting(),
  /** Seals the provider connections' API keys, signing secrets and callback URLs at rest (AES-256-GCM). */
  connectionSecretsKey: base64Key('PROVIDER_CONNECTION_SECRETS_KEY', { bytes: 32 }),
  /**
   * The public base URL providers reach this service's callback route at (behind the ingress):
   * callbacks go to `<base>/api/provider-callbacks/v1/<token>`. Unset: this process's own address
   * with ALLOW_LOOPBACK_HTTP_URLS (local setups); else no callback is sent with a create, and the
   * platform polls the provider (the contract's order: no webhook push, the platform polls).
   */
  platformCallbackBaseUrl: optionalStr('PLATFORM_CALLBACK_BASE_URL'),
  /** Local and test setups: a connection's base URL (and the callback base) may be plain http on loopback. */
  allowLoopbackHttpUrls: bool('ALLOW_LOOPBACK_HTTP_URLS', { default: false }),
  /**
   * Who signs the conformance certificates that enable a connection's capabilities: Ed25519 public
   * keys, base64 SPKI DER, comma-separated (checked at start). Unset: only administrators enable.
   */
  conformanceTrustedKeys: optionalStr('CONFORMANCE_TRUSTED_KEYS'),
  /**
   * Convergence: a live delivery whose provider has said nothing for this long is read (status and
   * tracking) when the connection supports polling.
   */
  dispatchQuietSeconds: int('DISPATCH_QUIET_SECONDS', { default: 120, min: 1, max: 3_600 }),
};
