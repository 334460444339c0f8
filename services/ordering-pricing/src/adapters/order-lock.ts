import { busy } from '@marketplace/errors';
import type { RedisLock } from '@marketplace/redis';

/**
 * One change at a time per order, across instances: a change is decided on the order as read
 * (between, say, a source cancel and a tenant accept) and written with its events, and an outbox
 * flush must not race the next change's staging. The lease holds from the read to the flush, so
 * the design needs no per-document isolation from the engine (it was chosen when the local engine,
 * FerretDB, had none; MongoDB and today's local engine isolate single-document writes, and the
 * lease stays as the one way orders change). A lease in Redis costs no database write; one whose
 * holder died expires after `ttlMs`.
 */
export class OrderLock {
  constructor(
    private readonly locks: RedisLock,
    private readonly options: { waitMs: number; ttlMs: number },
  ) {}

  async run<T>(orderId: string, work: () => Promise<T>): Promise<T> {
    const result = await this.locks.withLock(`order:${orderId}`, this.options, work);
    if (!result) throw busy('Another change of this order is in progress; retry shortly.');
    return result.value;
  }
}
