import { randomUUID } from 'node:crypto';
import type { AppError } from '@marketplace/errors';
import type { Collection } from 'mongodb';

/** A held lock: one document per locked name. */
export interface LockDoc {
  _id: string;
  token: string;
  expiresAt: Date;
}

const DUPLICATE_KEY = 11000;

export interface DocumentLockOptions {
  /** How long `run` waits for the lock before failing with `busy()`. */
  waitMs: number;
  /** How long a lock whose holder died stays: longer than any work under it takes. */
  ttlMs: number;
  /** The error when the lock never came free (a 503 with Retry-After, usually). */
  busy: () => AppError;
}

/**
 * One piece of work at a time per name (a tenant's catalog, an order). Taken by inserting a
 * document under a unique `_id`, which is exact on every MongoDB-wire engine (an update-based
 * lock was not, on FerretDB, which the local stack ran before and which did not isolate concurrent
 * updates of one document). A lock whose holder died expires after `ttlMs`.
 */
export class DocumentLock {
  constructor(
    private readonly locks: Collection<LockDoc>,
    private readonly options: DocumentLockOptions,
  ) {}

  /** This process's writers per tenant, in arrival order: they queue here, not on the database. */
  private readonly queues = new Map<string, Promise<unknown>>();

  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.options.waitMs;
    // Writers of one process take turns first (first come, first served), so only one of them at a
    // time polls for the database lock: concurrent writers of one instance cannot starve each other.
    const previous = this.queues.get(name) ?? Promise.resolve();
    let done!: () => void;
    const turn = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => turn);
    this.queues.set(name, tail);
    try {
      await previous;
      const token = await this.acquire(name, deadline);
      try {
        return await work();
      } finally {
        await this.locks.deleteOne({ _id: name, token }).catch(() => undefined); // else it expires
      }
    } finally {
      done();
      if (this.queues.get(name) === tail) this.queues.delete(name);
    }
  }

  private async acquire(name: string, deadline: number): Promise<string> {
    const token = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const now = new Date();
      try {
        await this.locks.insertOne({ _id: name, token, expiresAt: new Date(now.getTime() + this.options.ttlMs) });
        return token;
      } catch (error) {
        if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      }
      await this.locks.deleteOne({ _id: name, expiresAt: { $lt: now } }); // a dead holder's lock
      if (Date.now() >= deadline) {
        throw this.options.busy();
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(5 * 2 ** Math.min(attempt, 4), 80) * (0.5 + Math.random())),
      );
    }
  }
}
