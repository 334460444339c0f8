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

  /** This process's writers per tenant, in arrival order: they queue here, not on the database. */
  private readonly queues = new Map<string, Promise<unknown>>();

  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    // Writers of one process take turns first (first come, first served), so only one of them at a
    // time polls for the database lock: concurrent writers of one instance cannot starve each other.
    const previous = this.queues.get(tenantId) ?? Promise.resolve();
    let done!: () => void;
    const turn = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => turn);
    this.queues.set(tenantId, tail);
    try {
      await previous;
      const token = await this.acquire(tenantId, deadline);
      try {
        return await work();
      } finally {
        await this.locks.deleteOne({ _id: tenantId, token }).catch(() => undefined); // else it expires
      }
    } finally {
      done();
      if (this.queues.get(tenantId) === tail) this.queues.delete(tenantId);
    }
  }

  private async acquire(tenantId: string, deadline: number): Promise<string> {
    const token = randomUUID();
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
