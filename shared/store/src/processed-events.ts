import type { Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

interface ProcessedEventDoc {
  _id: string;
  group: string;
  eventId: string;
  processedAt: Date;
}

export const PROCESSED_EVENTS = 'processed_events';

/**
 * The event ids a consumer group has handled, in the service's own database: the consumer skips a
 * redelivered event it finds here. `_id` is `<group>:<eventId>`, so the primary key is the dedupe.
 */
export function processedEvents(db: Db, group: string) {
  const collection = db.collection<ProcessedEventDoc>(PROCESSED_EVENTS);
  return {
    async has(eventId: string): Promise<boolean> {
      return (await collection.findOne({ _id: `${group}:${eventId}` }, { projection: { _id: 1 } })) !== null;
    },
    async add(eventId: string): Promise<void> {
      try {
        await collection.insertOne({ _id: `${group}:${eventId}`, group, eventId, processedAt: new Date() });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    },
  };
}

/** Indexes of the processed-events collection (the primary key does the dedupe). */
export const PROCESSED_EVENTS_INDEXES = [{ key: { processedAt: 1 }, name: 'processedAt' }];

/**
 * Forgets event ids handled before `olderThan` (the `processedAt` index serves the range). The
 * local engine accepts TTL indexes but never applies them, so the runtime calls this periodically; keep ids well beyond the longest topic retention, since a redelivery can
 * only come from a message still on its topic.
 */
export async function pruneProcessedEvents(db: Db, olderThan: Date): Promise<number> {
  const result = await db
    .collection<ProcessedEventDoc>(PROCESSED_EVENTS)
    .deleteMany({ processedAt: { $lt: olderThan } });
  return result.deletedCount;
}
