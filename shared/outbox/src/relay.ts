import type { Db } from 'mongodb';
import type { PublishedEvent, StoredEvent } from '@marketplace/events';
import type { Logger } from '@marketplace/logging';
import { OUTBOX, OUTBOX_SINCE, OUTBOX_VERSION, type OutboxFields, type StagedEvent } from './outbox';

/** Where the relay sends what it reads back (an EventPublisher, which checks each event against its topic's schema). */
export interface Publisher {
  publishStored(events: readonly StoredEvent[]): Promise<PublishedEvent[]>;
}

export interface RelayOptions {
  db: Db;
  publisher: Publisher;
  /** Collections whose documents carry an outbox. */
  collections: string[];
  logger: Logger;
  /** How often the sweep looks for events left behind. */
  sweepIntervalMs?: number;
  /** Events younger than this are left to the fast path of the write that staged them. */
  graceMs?: number;
  batchSize?: number;
  /** Longest time `flush` keeps its caller waiting. */
  flushTimeoutMs?: number;
}

type OutboxDoc = OutboxFields & { _id: unknown };

/**
 * Moves staged events from documents to Kafka. `flush` is the fast path, called by the use case
 * right after its write; the sweep catches whatever a crash, a Kafka outage or a failed flush left
 * behind. Events of one document are published in the order they were staged.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> | undefined;
  private readonly log: Logger;

  constructor(private readonly options: RelayOptions) {
    this.log = options.logger.child({ component: 'outbox' });
  }

  /** Index that makes the sweep's query cheap: only documents with pending events are in it. */
  static indexes(collections: string[]) {
    return Object.fromEntries(
      collections.map((c) => [c, [{ key: { [OUTBOX_SINCE]: 1 }, name: 'outbox_pending', sparse: true }]]),
    );
  }

  /**
   * Publishes the pending events of one document. Never throws, and waits at most
   * `flushTimeoutMs`: past that (Kafka slow or away) the publish goes on in the background and the
   * sweep covers a failure. Await it before answering a request, so the events are out when the
   * caller hears back and the caller's next write to the document comes after this one's cleanup.
   */
  async flush(collection: string, id: unknown): Promise<void> {
    const attempt = (async () => {
      const doc = await this.options.db
        .collection<OutboxDoc>(collection)
        .findOne({ _id: id } as never, { projection: { [OUTBOX]: 1, [OUTBOX_VERSION]: 1 } });
      if (doc) await this.publishDocument(collection, doc);
    })().catch((error) => this.log.warn({ err: error, collection }, 'outbox flush failed; the sweep will retry'));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.flushTimeoutMs ?? 3000);
    });
    await Promise.race([attempt, timeout]);
    clearTimeout(timer);
  }

  start(): void {
    const interval = this.options.sweepIntervalMs ?? 1000;
    const tick = () => {
      this.sweeping = this.sweep()
        .catch((error) => this.log.warn({ err: error }, 'outbox sweep failed'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, interval);
        });
    };
    this.timer = setTimeout(tick, interval);
  }

  async stop(): Promise<void> {
    const timer = this.timer;
    this.timer = undefined;
    clearTimeout(timer);
    await this.sweeping;
  }

  /** One pass over every outbox collection; returns how many events were published. */
  async sweep(): Promise<number> {
    const cutoff = new Date(Date.now() - (this.options.graceMs ?? 2000));
    let published = 0;
    for (const collection of this.options.collections) {
      const docs = await this.options.db
        .collection<OutboxDoc>(collection)
        .find({ [OUTBOX_SINCE]: { $lte: cutoff } } as never, { projection: { [OUTBOX]: 1, [OUTBOX_VERSION]: 1 } })
        .sort({ [OUTBOX_SINCE]: 1 })
        .limit(this.options.batchSize ?? 100)
        .toArray();
      for (const doc of docs) {
        // One document whose events cannot be published (an event its schema refuses, say) must
        // not hold up the others: it stays pending, and is logged at every pass.
        try {
          published += await this.publishDocument(collection, doc);
        } catch (error) {
          this.log.error(
            { err: error, collection, documentId: String(doc._id) },
            'outbox events of a document could not be published',
          );
        }
      }
    }
    if (published > 0) this.log.info({ published }, 'outbox sweep published events left behind');
    return published;
  }

  private async publishDocument(collection: string, doc: OutboxDoc): Promise<number> {
    const events = doc[OUTBOX] ?? [];
    const coll = this.options.db.collection<OutboxDoc>(collection);
    let after: OutboxDoc | null = doc;
    if (events.length > 0) {
      await this.options.publisher.publishStored(events.map(toOutgoing));
      // Nothing staged since the read (same version): everything goes in one write.
      if (doc[OUTBOX_VERSION] !== undefined) {
        const cleared = await coll.updateOne(
          { _id: doc._id, [OUTBOX_VERSION]: doc[OUTBOX_VERSION] } as never,
          { $set: { [OUTBOX]: [] }, $unset: { [OUTBOX_SINCE]: '', [OUTBOX_VERSION]: '' } } as never,
        );
        if (cleared.matchedCount === 1) return events.length;
      }
      // Else remove exactly what was published; events staged meanwhile stay for the next flush.
      after = await coll.findOneAndUpdate(
        { _id: doc._id } as never,
        { $pullAll: { [OUTBOX]: events } },
        { returnDocument: 'after' },
      );
    }
    // Clear the pending marker only if nothing was staged since (a staging changes the version,
    // checked in the same write).
    if (after && (after[OUTBOX] ?? []).length === 0) {
      await coll.updateOne(
        { _id: doc._id, [OUTBOX_VERSION]: after[OUTBOX_VERSION] ?? null } as never,
        { $unset: { [OUTBOX_SINCE]: '', [OUTBOX_VERSION]: '' } } as never,
      );
    }
    return events.length;
  }
}

function toOutgoing(event: StagedEvent): StoredEvent {
  return {
    topic: event.topic,
    key: event.key,
    type: event.type,
    data: event.data,
    eventId: event.eventId,
    occurredAt: event.occurredAt,
    trace: event.trace,
  };
}
