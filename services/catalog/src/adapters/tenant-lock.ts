import { randomUUID } from 'node:crypto';
import { AppError } from '@marketplace/errors';
import type { Collection } from 'mongodb';
import type { TenantLockDoc } from './store';

const DUPLICATE_KEY = 11000;

/**
 * One write at a time per tenant, so that reference checks, cycle checks and the change sequence
 * see a catalog nobody else is changing. Taken by inserting a document under a unique `_id`, which
 * is exact on MongoDB and on FerretDB alike (an update-based lock is not, on FerretDB 1.x). A lock
 * whose holder died expires after `ttlMs`.
 */
export class TenantLock {
  constructor(
    private readonly locks: Collection<TenantLockDoc>,
    private readonly waitMs = 5_000,
    private readonly ttlMs = 30_000,
  ) {}

  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const token = await this.acquire(tenantId);
    try {
      return await work();
    } finally {
      await this.locks.deleteOne({ _id: tenantId, token }).catch(() => undefined); // else it expires
    }
  }

  private async acquire(tenantId: string): Promise<string> {
    const token = randomUUID();
    const deadline = Date.now() + this.waitMs;
    for (let attempt = 0; ; attempt++) {
      const now = new Date();
      try {
        await this.locks.insertOne({ _id: tenantId, token, expiresAt: new Date(now.getTime() + this.ttlMs) });
        return token;
      } catch (error) {
        if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      }
      await this.locks.deleteOne({ _id: tenantId, expiresAt: { $lt: now } }); // a dead holder's lock
      if (Date.now() >= deadline) {
        throw new AppError('unavailable', 'catalog.busy', 'Another change of this catalog is in progress; retry shortly.', { retryAfterSeconds: 1 });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(5 * 2 ** Math.min(attempt, 4), 80) * (0.5 + Math.random())));
    }
  }
}
