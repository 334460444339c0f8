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
      return (await collection.countDocuments({ _id: `${group}:${eventId}` }, { limit: 1 })) > 0;
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
