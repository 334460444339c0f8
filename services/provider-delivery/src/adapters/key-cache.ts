import type { StoredApiKey } from './api-keys-repository';
import type { PlatformAccount } from '../domain/platform-account';
import type { ApiKeyCache } from '../usecases/ports';

/** How long a key and its account are trusted from memory before the database is read again. */
export const KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  key: StoredApiKey;
  account: PlatformAccount;
  until: number;
}

/**
 * A small in-process cache of the keys that authenticated lately, by key id, so that a platform's
 * burst of calls does not read two documents per call. The cached record is checked like a fresh
 * one (hash, revocation, expiry) on every request. A revocation, a rotation or an account change
 * made through this process drops the account's entries at once; one made through another copy of
 * the service is seen here within KEY_CACHE_TTL_MS. Misses are never cached.
 */
export class KeyCache implements ApiKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs = KEY_CACHE_TTL_MS) {}

  get(keyId: string, nowMs: number): { key: StoredApiKey; account: PlatformAccount } | undefined {
    const entry = this.entries.get(keyId);
    if (!entry) return undefined;
    if (entry.until <= nowMs) {
      this.entries.delete(keyId);
      return undefined;
    }
    return entry;
  }

  set(key: StoredApiKey, account: PlatformAccount, nowMs: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key.keyId, { key, account, until: nowMs + this.ttlMs });
  }

  forgetAccount(accountId: string): void {
    for (const [keyId, entry] of this.entries) if (entry.account.id === accountId) this.entries.delete(keyId);
  }
}
