import type { Defect } from './defects';
import type { Sandbox } from './sandbox';
import type { WebhookSender } from './webhooks';

/** What the create answered for an idempotency key, and what it compares a replay against. */
export interface IdempotencyRecord {
  /** The create request without `webhook`, null fields dropped, keys sorted. */
  fingerprint: string;
  callbackUrl: string | null;
  answer: Record<string, unknown>;
}

export interface ProviderState {
  apiKey: string;
  webhookSecret: string;
  defects: ReadonlySet<Defect>;
  sandbox: Sandbox;
  sender: WebhookSender;
  idempotency: Map<string, IdempotencyRecord>;
  locks: KeyedLock;
}

/** Runs tasks of one key one after another (concurrent identical creates converge on one result). */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
