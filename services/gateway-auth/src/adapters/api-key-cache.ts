import type { Redis } from '@marketplace/redis';
import { whileRedisAnswers } from '@marketplace/redis';
import { cacheSecondsFor } from '../domain/api-key';
import type { CachedApiKey, KeyCache } from '../usecases/ports';

const TTL_SECONDS = 300;
/** Longer than any cached entry can live, so a revoked key can never be cached as active again. */
const TOMBSTONE_SECONDS = 2 * TTL_SECONDS;
const REVOKED = 'revoked';

/**
 * Cache of API keys in Redis, shared by every gateway instance. Revocation writes a tombstone
 * (overwriting any entry) and a fill only ever writes where nothing is (SET NX): a fill racing a
 * revocation either lands first and is overwritten, or finds the tombstone. So a revoked key stops
 * working at once on every instance, and its record in MongoDB is the truth once the tombstone ages.
 *
 * A key given an expiry (the previous key of a rotation with an overlap) is written again with it,
 * overwriting any entry, and lives in Redis no longer than until then: at its end it is simply not
 * found, and MongoDB says it expired. A fill that read MongoDB before the expiry was set either
 * lands first and is overwritten, or finds the rewritten entry (it lives at least a second, and
 * fills slower than that are dropped: see authenticatePartner).
 */
export class ApiKeyCache implements KeyCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(keyId: string) {
    return `${this.prefix}key:${keyId}`;
  }

  /** The entry, `'revoked'`, or undefined when not cached. */
  async get(keyId: string): Promise<CachedApiKey | typeof REVOKED | undefined> {
    const value = await whileRedisAnswers(this.redis.get(this.key(keyId)));
    if (value === null) return undefined;
    if (value === REVOKED) return REVOKED;
    const entry = JSON.parse(value) as CachedApiKey;
    return entry.tenant ? entry : undefined; // written by an older gateway: fill again
  }

  /** Caches a key read from MongoDB, unless an entry or a tombstone is there, until its expiry at the latest. */
  async fill(keyId: string, entry: CachedApiKey): Promise<void> {
    const seconds = cacheSecondsFor(entry.expiresAt, Date.now(), TTL_SECONDS);
    if (seconds === 0) return;
    await whileRedisAnswers(this.redis.set(this.key(keyId), JSON.stringify(entry), 'EX', seconds, 'NX'));
  }

  /**
   * Writes these keys again with their expiry, over whatever is cached (a tombstone for one already
   * past it): every gateway sees the new end at once.
   */
  async expire(entries: ReadonlyArray<{ keyId: string; entry: CachedApiKey }>): Promise<void> {
    if (entries.length === 0) return;
    const now = Date.now();
    const pipeline = this.redis.pipeline();
    for (const { keyId, entry } of entries) {
      const seconds = cacheSecondsFor(entry.expiresAt, now, TTL_SECONDS);
      if (seconds === 0) pipeline.set(this.key(keyId), REVOKED, 'EX', TOMBSTONE_SECONDS);
      else pipeline.set(this.key(keyId), JSON.stringify(entry), 'EX', seconds);
    }
    const results = await whileRedisAnswers(pipeline.exec());
    const failed = results?.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }

  async revoke(keyIds: string[]): Promise<void> {
    if (keyIds.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const keyId of keyIds) pipeline.set(this.key(keyId), REVOKED, 'EX', TOMBSTONE_SECONDS);
    const results = await whileRedisAnswers(pipeline.exec());
    const failed = results?.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }
}
