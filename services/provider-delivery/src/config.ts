import { base64Key, bool, str } from '@marketplace/config';
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
};

export type ProviderSettings = typeof settings;
