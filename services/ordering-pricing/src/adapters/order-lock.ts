import { AppError } from '@marketplace/errors';
import type { RedisLock } from '@marketplace/redis';

/**
 * One change at a time per order, across instances: FerretDB does not isolate two updates of one
 * document, so a conditional update alone cannot decide between, say, a source cancel and a tenant
 * accept, nor keep an outbox flush from racing the next change's staging. A lease in Redis costs
 * no database write; one whose holder died expires after `ttlMs`.
 */
export class OrderLock {
  constructor(
    private readonly locks: RedisLock,
    private readonly options: { waitMs: number; ttlMs: number },
  ) {}

  async run<T>(orderId: string, work: () => Promise<T>): Promise<T> {
    const result = await this.locks.withLock(`order:${orderId}`, this.options, work);
    if (!result) throw new AppError('unavailable', 'order.busy', 'Another change of this order is in progress; retry shortly.', { retryAfterSeconds: 1 });
    return result.value;
  }
}
