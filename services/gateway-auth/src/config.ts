import { base64Key, bool, int, str, url } from '@marketplace/config';
import { webhookSecretTransportKeySetting } from '@marketplace/identity';

/**
 * Settings of the gateway beyond the platform ones. The five secrets have no default: a deployment
 * sets its own; `npm start` and the tests use the ones generated into `.stack/local.env`.
 */
export const settings = {
  /** Ed25519 private key (base64 PKCS#8 DER) signing the caller's identity for internal services. */
  identityPrivateKey: str('INTERNAL_IDENTITY_PRIVATE_KEY', { pattern: /^[A-Za-z0-9+/]+={0,2}$/ }),
  /** AES-256-GCM key for secrets at rest (webhook signing secrets, OAuth client secrets and tokens). */
  encryptionKey: base64Key('SECRETS_ENCRYPTION_KEY', { bytes: 32 }),
  /** HMAC key for the keyed hash of API secrets: a database dump alone cannot test guesses. */
  apiKeyHashSecret: base64Key('API_KEY_HASH_SECRET', { minBytes: 32 }),
  /** AES-256-GCM key sealing webhook signing secrets on their way to the webhook sender (installation events). */
  webhookSecretTransportKey: webhookSecretTransportKeySetting(),
  /** HMAC key of the administrator and tenant bearer tokens. */
  tokenSecret: base64Key('MARKETPLACE_TOKEN_SECRET', { minBytes: 32 }),

  /** Where browsers and partners reach this gateway; the OAuth redirect URI is built from it. */
  publicBaseUrl: url('PUBLIC_BASE_URL', { protocols: ['http', 'https'], default: 'http://127.0.0.1:4101' }),
  /** Owners of the Partner API routes and of forwarded tenant routes, on the internal network. */
  catalogUrl: url('CATALOG_URL', { protocols: ['http', 'https'], default: 'http://127.0.0.1:4102' }),
  orderingUrl: url('ORDERING_URL', { protocols: ['http', 'https'], default: 'http://127.0.0.1:4103' }),
  deliveryUrl: url('DELIVERY_URL', { protocols: ['http', 'https'], default: 'http://127.0.0.1:4104' }),
  webhooksUrl: url('WEBHOOKS_URL', { protocols: ['http', 'https'], default: 'http://127.0.0.1:4106' }),
  upstreamTimeoutMs: int('UPSTREAM_TIMEOUT_MS', { default: 10_000, min: 100, max: 120_000 }),

  rateLimitPerIp: int('RATE_LIMIT_PER_IP', { default: 120, min: 1 }),
  rateLimitPerInstallation: int('RATE_LIMIT_PER_INSTALLATION', { default: 60, min: 1 }),
  rateLimitWindowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', { default: 60, min: 1, max: 3600 }),
  /**
   * The tenant API (`/api/tenant/v1`, the forwarded parts included: one budget): per client IP,
   * counted before the token is checked, and per tenant (the token's `tid`), in the same window.
   * A restaurant's dashboard loads in bursts of a few dozen calls.
   */
  tenantRateLimitPerIp: int('TENANT_RATE_LIMIT_PER_IP', { default: 1_200, min: 1 }),
  /**
   * The public routes (the API documents, the /docs pages and their assets, the OAuth redirect) per
   * client IP: a budget of their own, so reading the docs never spends the Partner API's.
   */
  publicRateLimitPerIp: int('PUBLIC_RATE_LIMIT_PER_IP', { default: 1_200, min: 1 }),
  tenantRateLimitPerTenant: int('TENANT_RATE_LIMIT_PER_TENANT', { default: 600, min: 1 }),
  /** The administrator API (`/api/admin/v1`): per client IP (before the token) and per administrator (`sub`). */
  adminRateLimitPerIp: int('ADMIN_RATE_LIMIT_PER_IP', { default: 600, min: 1 }),
  adminRateLimitPerAdmin: int('ADMIN_RATE_LIMIT_PER_ADMIN', { default: 300, min: 1 }),
  /** Prefix of every Redis key of the gateway (rate limits, locks, key cache). */
  redisKeyPrefix: str('REDIS_KEY_PREFIX', { default: 'gateway:', pattern: /^[A-Za-z0-9:_-]{1,64}$/ }),

  /** How long a stored idempotent response is replayed. */
  idempotencyRetentionHours: int('IDEMPOTENCY_RETENTION_HOURS', { default: 24, min: 1, max: 24 * 30 }),
  /** How long a request waits for a concurrent one with the same key before answering 409. */
  idempotencyWaitMs: int('IDEMPOTENCY_WAIT_MS', { default: 15_000, min: 100, max: 120_000 }),

  /** Local and test setups: allow plain-HTTP webhook and OAuth URLs on the loopback interface. */
  allowLoopbackHttpUrls: bool('ALLOW_LOOPBACK_HTTP_URLS', { default: false }),
  oauthStateTtlSeconds: int('OAUTH_STATE_TTL_SECONDS', { default: 600, min: 60, max: 3600 }),
  oauthTimeoutMs: int('OAUTH_TIMEOUT_MS', { default: 10_000, min: 100, max: 60_000 }),

  /**
   * How often each gateway reads the revoked tenant-token ids again: a revocation takes effect on
   * every instance within this time (at once on the one that made it); a list older than twice
   * this is never used (the request waits for a fresh read, or answers 503).
   */
  tokenRevocationRefreshSeconds: int('TOKEN_REVOCATION_REFRESH_SECONDS', { default: 5, min: 1, max: 60 }),
  /** How long audit events of administrator and tenant mutations are kept. */
  auditRetentionDays: int('AUDIT_RETENTION_DAYS', { default: 365, min: 1, max: 3650 }),
};

export type GatewaySettings = typeof settings;
