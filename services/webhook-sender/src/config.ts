import { base64Key, bool, int, oneOf, optionalStr } from '@marketplace/config';
import { identityPublicKeySetting, webhookSecretTransportKeySetting } from '@marketplace/identity';

/**
 * Settings of this service beyond the platform ones (PORT, KAFKA_BROKERS, MONGO_URL, ...), read
 * and validated at start by the runtime.
 */
export const settings = {
  /** The gateway's public key: tenant requests are trusted only with its signature. */
  identityPublicKey: identityPublicKeySetting(),
  /**
   * Opens the signing secrets sealed in the gateway's installation events, and the platform
   * accounts' secrets and callback URLs sealed in provider-delivery's `provider-events`.
   */
  webhookSecretTransportKey: webhookSecretTransportKeySetting(),
  /**
   * HMAC key (base64, 32 bytes or more) of the administrator tokens of the provider-callback API
   * (HS256 JWT, role admin): the very key of provider-delivery's administrator API, whose
   * operators these callbacks are for.
   */
  providerAdminTokenSecret: base64Key('PROVIDER_ADMIN_TOKEN_SECRET', { minBytes: 32 }),
  /** Local and test setups only: plain http and loopback receivers are allowed. */
  allowLoopbackHttp: bool('ALLOW_LOOPBACK_HTTP_URLS', { default: false }),
  connectTimeoutMs: int('WEBHOOK_CONNECT_TIMEOUT_MS', { default: 3_000, min: 100, max: 60_000 }),
  responseTimeoutMs: int('WEBHOOK_RESPONSE_TIMEOUT_MS', { default: 10_000, min: 100, max: 120_000 }),
  /** How much of a receiver's answer is read (the rest is dropped). */
  maxResponseBytes: int('WEBHOOK_MAX_RESPONSE_BYTES', { default: 4_096, min: 0, max: 1_048_576 }),
  /** Attempts in flight at once, in all and per endpoint owner (an installation, or a platform account). */
  concurrency: int('WEBHOOK_CONCURRENCY', { default: 64, min: 1, max: 10_000 }),
  concurrencyPerEndpoint: int('WEBHOOK_CONCURRENCY_PER_ENDPOINT', { default: 4, min: 1, max: 1_000 }),
  /**
   * Attempts read ahead of their due time and kept in memory (about 300 bytes each); past it a
   * retry partition stops reading until one is sent, which may make attempts behind it late (an
   * alarm after CONSUMER_HOLD_ALARM_MS).
   */
  maxWaitingAttempts: int('WEBHOOK_MAX_WAITING_ATTEMPTS', { default: 100_000, min: 1, max: 10_000_000 }),
  /**
   * An endpoint owner's circuit opens after this many consecutive attempts that got no answer
   * (connection refused, DNS failure, timeout, reset, TLS); its due attempts are then parked.
   */
  circuitFailures: int('WEBHOOK_CIRCUIT_FAILURES', { default: 5, min: 1, max: 1_000 }),
  /**
   * While a circuit is open, one parked attempt (the one due first) goes as a probe this long after
   * the circuit opened or the last probe failed; an answer closes the circuit. Not divided by
   * WEBHOOK_RETRY_TIME_SCALE: tests set it themselves.
   */
  circuitProbeIntervalMs: int('WEBHOOK_CIRCUIT_PROBE_INTERVAL_MS', { default: 30_000, min: 10, max: 3_600_000 }),
  /** Every retry delay is divided by this (1 in production; tests run the schedule in seconds). */
  retryTimeScale: int('WEBHOOK_RETRY_TIME_SCALE', { default: 1, min: 1, max: 10_000_000 }),
  /**
   * Where a new installation copy starts reading the installations topic: `earliest` (the
   * default: the whole history, so a new database fills itself) or `latest` (tests, whose
   * installations are all new).
   */
  installationsCopyStart: oneOf('INSTALLATIONS_COPY_START', ['earliest', 'latest'] as const, { default: 'earliest' }),
  /** A PEM file of extra certificate authorities to trust (a private receiver's CA, tests). */
  extraCaFile: optionalStr('WEBHOOK_EXTRA_CA_FILE'),
  /** The administrator API's rate limits, per minute: per client IP (counted before the token) and per administrator (`sub`). */
  adminRateLimitPerIp: int('ADMIN_RATE_LIMIT_PER_IP', { default: 600, min: 1 }),
  adminRateLimitPerAdmin: int('ADMIN_RATE_LIMIT_PER_ADMIN', { default: 300, min: 1 }),
};
