import { base64Key, bool, int, str } from '@marketplace/config';
import { webhookSecretTransportKeySetting } from '@marketplace/identity';

/**
 * Settings of this service beyond the platform ones (PORT, KAFKA_BROKERS, MONGO_URL, ...), read
 * and validated at start by the runtime. The three secrets have no default: a deployment (staging
 * and production each) sets its own; `npm start` and the tests use the ones generated into
 * `.stack/local.env`.
 */
export const settings = {
  /** HMAC key (base64, 32 bytes or more) of the administrator API's bearer tokens (HS256 JWT, role admin). */
  adminTokenSecret: base64Key('PROVIDER_ADMIN_TOKEN_SECRET', { minBytes: 32 }),
  /** HMAC key (base64, 32 bytes or more) of the keyed hashes of platform API keys: a database dump alone cannot test guesses. */
  keyHashSecret: base64Key('PROVIDER_KEY_HASH_SECRET', { minBytes: 32 }),
  /** AES-256-GCM key (base64, 32 bytes) sealing secrets at rest: the accounts' webhook signing secrets. */
  secretKey: base64Key('PROVIDER_SECRET_KEY', { bytes: 32 }),
  /** AES-256-GCM key (base64, 32 bytes) the webhook sender opens what this service hands it with: signing secrets and callback URLs on `provider-events`. */
  webhookSecretTransportKey: webhookSecretTransportKeySetting(),
  /** Local and test setups: allow plain-HTTP webhook URLs (any port) on the loopback interface. */
  allowLoopbackHttpUrls: bool('ALLOW_LOOPBACK_HTTP_URLS', { default: false }),
  /**
   * Where the public tracking pages are reached from outside (no trailing slash): trackingUrl is
   * `<PUBLIC_BASE_URL>/track/<token>`. Empty: this process's own address (local setups).
   */
  publicBaseUrl: str('PUBLIC_BASE_URL', { default: '', pattern: /^(https?:\/\/[^/\s]+(\/[^\s]*[^/\s])?)?$/ }),
  /** Local setups, tests and the demo: run the courier simulator for the accounts that turn it on (off in production). */
  simulatorEnabled: bool('SIMULATOR_ENABLED', { default: false }),

  /*
   * Rate limits, per minute (README, Rate limits), beside each platform account's own. Per client IP
   * every request counts, before its credentials are looked at; per caller the authenticated ones.
   */
  /** The administrator API: per client IP, and per administrator (the token's `sub`). */
  adminRateLimitPerIp: int('ADMIN_RATE_LIMIT_PER_IP', { default: 600, min: 1 }),
  adminRateLimitPerAdmin: int('ADMIN_RATE_LIMIT_PER_ADMIN', { default: 300, min: 1 }),
  /** The platform API, per client IP, in front of the per-account limits: five accounts at their default from one address. */
  platformRateLimitPerIp: int('PLATFORM_RATE_LIMIT_PER_IP', { default: 6_000, min: 1 }),
  /** The courier API: per client IP (drivers behind one mobile carrier's address), and per driver. */
  courierRateLimitPerIp: int('COURIER_RATE_LIMIT_PER_IP', { default: 2_400, min: 1 }),
  courierRateLimitPerDriver: int('COURIER_RATE_LIMIT_PER_DRIVER', { default: 240, min: 1 }),
  /** The public routes (tracking pages and their state, the two OpenAPI documents), per client IP. */
  publicRateLimitPerIp: int('PUBLIC_RATE_LIMIT_PER_IP', { default: 1_200, min: 1 }),
  /** One tracking link, its page and state together: the page's script reads the state every 2 s (30 a minute). */
  trackingRateLimitPerToken: int('TRACKING_RATE_LIMIT_PER_TOKEN', { default: 120, min: 1 }),
  /** Prefix of this service's Redis keys (the rate limits): two deployments on one Redis each take their own. */
  redisKeyPrefix: str('REDIS_KEY_PREFIX', { default: 'provider-delivery:', pattern: /^[A-Za-z0-9:_-]{1,64}$/ }),
};

export type ProviderSettings = typeof settings;
