import { int } from '@marketplace/config';
import { identityPublicKeySetting } from '@marketplace/identity';

/**
 * Settings of this service beyond the platform ones (PORT, KAFKA_BROKERS, MONGO_URL, ...), read
 * and validated at start by the runtime.
 */
export const settings = {
  /** The gateway's public key: partner and tenant requests are trusted only with its signature. */
  identityPublicKey: identityPublicKeySetting(),
  /** Tenants whose whole menu is kept in memory for partner reads. */
  menuCacheTenants: int('MENU_CACHE_TENANTS', { default: 64, min: 1, max: 100_000 }),
  /** Megabytes of serialized partner responses kept in memory. */
  menuCacheResponseMegabytes: int('MENU_CACHE_RESPONSE_MB', { default: 128, min: 1, max: 16_384 }),
  /** How long a tenant's change waits for another change of the same tenant before answering 503. */
  writeLockWaitMs: int('CATALOG_WRITE_LOCK_WAIT_MS', { default: 5_000, min: 100, max: 60_000 }),
};
