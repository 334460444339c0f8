import type { ProviderWebhookTestResponse } from '@marketplace/contracts';
import type { Logger } from '@marketplace/logging';
import type { Redis } from '@marketplace/redis';

/** A test of a callback as remembered: still running (its id and time known), or its outcome. */
export type RememberedTest =
  { state: 'running'; testId: string; eventTimeUtc: string } | { state: 'done'; outcome: ProviderWebhookTestResponse };

/** Where the webhook tests of the dedupe window are remembered (Redis, shared by every instance). */
export interface WebhookTestMemory {
  /** The test remembered under `key`, or undefined (none, or Redis did not answer). */
  find(key: string): Promise<RememberedTest | undefined>;
  /** Takes `key` for a test about to run; false when another call holds it. Redis away: true (send, undeduplicated). */
  claim(key: string, running: { testId: string; eventTimeUtc: string }, ttlSeconds: number): Promise<boolean>;
  /** Remembers the outcome under `key` for `ttlSeconds`. */
  record(key: string, outcome: ProviderWebhookTestResponse, ttlSeconds: number): Promise<void>;
}

/**
 * The webhook tests of the dedupe window in Redis (keys under the service's prefix, named by
 * `webhookTestKey`: the account and a hash of the URL, never the URL, whose path holds a token).
 * Redis is already this service's shared short-lived state (the rate limits), so a platform's retry
 * reaching another instance, or this one after a restart, is deduplicated too. When Redis does not
 * answer, a test is sent as before, undeduplicated (fail open, as the rate limits): a second test
 * event is harmless, a refused test is not.
 */
export class RedisWebhookTestMemory implements WebhookTestMemory {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  async find(key: string): Promise<RememberedTest | undefined> {
    try {
      const raw = await this.redis.get(this.prefix + key);
      return raw === null ? undefined : (JSON.parse(raw) as RememberedTest);
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook test memory unavailable: the test is not deduplicated');
      return undefined;
    }
  }

  async claim(key: string, running: { testId: string; eventTimeUtc: string }, ttlSeconds: number): Promise<boolean> {
    const value: RememberedTest = { state: 'running', ...running };
    try {
      return (await this.redis.set(this.prefix + key, JSON.stringify(value), 'EX', ttlSeconds, 'NX')) === 'OK';
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook test memory unavailable: the test is not deduplicated');
      return true;
    }
  }

  async record(key: string, outcome: ProviderWebhookTestResponse, ttlSeconds: number): Promise<void> {
    const value: RememberedTest = { state: 'done', outcome };
    try {
      await this.redis.set(this.prefix + key, JSON.stringify(value), 'EX', ttlSeconds);
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook test memory unavailable: the outcome is not remembered');
    }
  }
}
