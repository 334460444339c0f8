import type { Logger } from '@marketplace/logging';
import type { ProviderStore } from '../adapters/store';
import type { KeyCache } from './key-cache';

/** Seals and opens secrets at rest, bound to what they belong to (SecretBox of @marketplace/identity). */
export interface SecretSealer {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** What the use cases work with. */
export interface ProviderContext {
  store: ProviderStore;
  box: SecretSealer;
  keyCache: KeyCache;
  /** HMAC key of the API keys' stored hashes (PROVIDER_KEY_HASH_SECRET). */
  keyHashSecret: Buffer;
  /** Local and test setups: plain-HTTP webhook URLs on loopback (ALLOW_LOOPBACK_HTTP_URLS). */
  allowLoopbackHttpUrls: boolean;
  logger: Logger;
  now(): Date;
  newId(): string;
}

/** Where an account's sealed webhook secret is bound (associated data of the seal). */
export const webhookSecretContext = (accountId: string) => `platform-account:${accountId}:webhook-secret`;
