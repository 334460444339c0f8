import type { Collection, Db } from 'mongodb';
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
  /**
   * How long the inserted documents `flushWritten` published wait to be cleared together, in one
   * bulk write: on the local engine, which writes one at a time, a bulk of 50 clears costs about
   * what 3 single writes do, so an insert with events costs one write, not two (0: clear each at
   * once).
   */
  clearBatchMs?: number;
}

/** An inserted document whose events `flushWritten` published, waiting for its batched clear. */
interface PendingClear {
  id: unknown;
  version: string;
  events: StagedEvent[];
}

/** Clears waiting beyond this many are written at once, whatever the time. */
const MAX_PENDING_CLEARS = 500;

type OutboxDoc = OutboxFields & { _id: unknown };

/**
 * Moves staged events from documents to Kafka. `flush` is the fast path, called by the use case
 * right after its write; the sweep catches whatever a crash, a Kafka outage or a failed flush left
 * behind. Events of one document are published in the order they were staged.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> | undefined;
  /** Set by stop: a sweep under way ends after the document in hand. */
  private stopping = false;
  private pendingClears = new Map<string, PendingClear[]>();
  /** `collection/id` of every document whose batched clear is queued or being written. */
  private readonly clearingIds = new Set<string>();
  private pendingCount = 0;
  private clearTimer: NodeJS.Timeout | undefined;
  private clearing: Promise<void> = Promise.resolve();
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
    await this.bounded(collection, async () => {
      // A document inserted moments ago may still hold its first events, published, waiting for
      // their batched clear: write the clears first, or this flush would publish them once more.
      if (this.clearingIds.has(clearKey(collection, id))) await this.writeClears();
      const doc = await this.options.db
        .collection<OutboxDoc>(collection)
        .findOne({ _id: id } as never, { projection: { [OUTBOX]: 1, [OUTBOX_VERSION]: 1 } });
      if (doc) await this.publishDocument(collection, doc);
    });
  }

  /**
   * `flush` for a document this process has just inserted, as it was written (`withOutbox`'s
   * result): its events are published without reading it back, and cleared with other inserted
   * documents' in one bulk write up to `clearBatchMs` later. Only for a new document: a change of
   * an existing one must be cleared before its caller hears back (`flush`), or the next change's
   * flush would publish its events again ahead of the new ones. A document changed before its
   * batched clear keeps what was staged since (the clear checks the version and then removes
   * exactly what was published). That change's own flush, in this process, writes the waiting
   * clears before it reads; in another process it may publish the insert's events once more, in
   * their order, before its own: at least once, never out of order.
   */
  async flushWritten(collection: string, doc: OutboxFields & { _id: unknown }): Promise<void> {
    await this.bounded(collection, () => this.publishDocument(collection, doc, true));
  }

  /** Runs a flush, never throwing, keeping the caller at most `flushTimeoutMs`. */
  private async bounded(collection: string, work: () => Promise<unknown>): Promise<void> {
    const attempt = work().catch((error) =>
      this.log.warn({ err: error, collection }, 'outbox flush failed; the sweep will retry'),
    );
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

  /**
   * Stops the sweep. A sweep under way ends after the document in hand: what it has not reached
   * stays staged for the next sweep of any process (never lost), so a backlog cannot hold a
   * SIGTERM past its bound.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    const timer = this.timer;
    this.timer = undefined;
    clearTimeout(timer);
    await this.sweeping;
    await this.writeClears();
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
        if (this.stopping) break;
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

  private async publishDocument(collection: string, doc: OutboxDoc, batchClear = false): Promise<number> {
    const events = doc[OUTBOX] ?? [];
    const coll = this.options.db.collection<OutboxDoc>(collection);
    let after: OutboxDoc | null = doc;
    if (events.length > 0) {
      await this.options.publisher.publishStored(events.map(toOutgoing));
      if (batchClear && doc[OUTBOX_VERSION] !== undefined && (this.options.clearBatchMs ?? 25) > 0) {
        this.queueClear(collection, { id: doc._id, version: doc[OUTBOX_VERSION], events });
        return events.length;
      }
      // Nothing staged since the read (same version): everything goes in one write.
      if (doc[OUTBOX_VERSION] !== undefined) {
        const cleared = await coll.updateOne(
          { _id: doc._id, [OUTBOX_VERSION]: doc[OUTBOX_VERSION] } as never,
          { $set: { [OUTBOX]: [] }, $unset: { [OUTBOX_SINCE]: '', [OUTBOX_VERSION]: '' } } as never,
        );
        if (cleared.matchedCount === 1) return events.length;
      }
      // Else remove exactly what was published; events staged meanwhile stay for the next flush.
      after = await removePublished(coll, doc._id, events);
    }
    if (after) await clearMarkerIfEmpty(coll, after);
    return events.length;
  }

  private queueClear(collection: string, clear: PendingClear): void {
    const list = this.pendingClears.get(collection) ?? [];
    list.push(clear);
    this.clearingIds.add(clearKey(collection, clear.id));
    this.pendingClears.set(collection, list);
    this.pendingCount++;
    if (this.pendingCount >= MAX_PENDING_CLEARS) void this.writeClears();
    else this.clearTimer ??= setTimeout(() => void this.writeClears(), this.options.clearBatchMs ?? 25);
  }

  /**
   * Clears the published events of the documents waiting, one bulk write per collection, each
   * document only if nothing was staged in it since (its version). A document staged again
   * meanwhile keeps its new events: exactly the published ones are removed from it. A failure
   * leaves the events staged; the sweep publishes them again (at least once, never lost).
   */
  private writeClears(): Promise<void> {
    clearTimeout(this.clearTimer);
    this.clearTimer = undefined;
    const batches = this.pendingClears;
    this.pendingClears = new Map();
    this.pendingCount = 0;
    this.clearing = this.clearing.then(async () => {
      for (const [collection, clears] of batches) {
        const coll = this.options.db.collection<OutboxDoc>(collection);
        try {
          const result = await coll.bulkWrite(
            clears.map((c) => ({
              updateOne: {
                filter: { _id: c.id, [OUTBOX_VERSION]: c.version } as never,
                update: { $set: { [OUTBOX]: [] }, $unset: { [OUTBOX_SINCE]: '', [OUTBOX_VERSION]: '' } } as never,
              },
            })),
            { ordered: false },
          );
          if (result.matchedCount < clears.length) await this.clearRestaged(coll, clears);
        } catch (error) {
          this.log.warn({ err: error, collection }, 'outbox clear failed; the sweep will publish those events again');
        } finally {
          for (const c of clears) this.clearingIds.delete(clearKey(collection, c.id));
        }
      }
    });
    return this.clearing;
  }

  /** The documents of a batch whose version changed (staged again): remove exactly what was published. */
  private async clearRestaged(coll: Collection<OutboxDoc>, clears: PendingClear[]): Promise<void> {
    const versions = new Map(clears.map((c) => [String(c.id), c.version]));
    const restaged = await coll
      .find({ _id: { $in: clears.map((c) => c.id) }, [OUTBOX_VERSION]: { $exists: true } } as never, {
        projection: { [OUTBOX_VERSION]: 1 },
      })
      .toArray();
    for (const doc of restaged) {
      const clear = clears.find((c) => String(c.id) === String(doc._id));
      if (!clear || versions.get(String(doc._id)) === doc[OUTBOX_VERSION]) continue;
      const after = await removePublished(coll, doc._id, clear.events);
      if (after) await clearMarkerIfEmpty(coll, after);
    }
  }
}

const clearKey = (collection: string, id: unknown) => `${collection}/${String(id)}`;

/** Removes exactly `events` from the document's outbox; events staged meanwhile stay. */
const removePublished = (coll: Collection<OutboxDoc>, id: unknown, events: StagedEvent[]) =>
  coll.findOneAndUpdate({ _id: id } as never, { $pullAll: { [OUTBOX]: events } }, { returnDocument: 'after' });

/**
 * Clears the pending marker only if nothing was staged since (a staging changes the version,
 * checked in the same write).
 */
async function clearMarkerIfEmpty(coll: Collection<OutboxDoc>, after: OutboxDoc): Promise<void> {
  if ((after[OUTBOX] ?? []).length > 0) return;
  await coll.updateOne(
    { _id: after._id, [OUTBOX_VERSION]: after[OUTBOX_VERSION] ?? null } as never,
    { $unset: { [OUTBOX_SINCE]: '', [OUTBOX_VERSION]: '' } } as never,
  );
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
