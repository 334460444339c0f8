import { randomUUID } from 'node:crypto';
import type { Document, UpdateFilter } from 'mongodb';
import { injectTraceContext, type OutgoingEvent, type PlatformTopics, type TopicMap } from '@marketplace/events';

/**
 * The transactional outbox, kept inside the document it concerns.
 *
 * Every MongoDB-wire engine makes a single-document write atomic, and we use no multi-document
 * transactions. So the events a state change implies are written *into the same document, in the
 * same write* as the change: an `_outbox` array of fully formed events (id, topic, key, type,
 * data), plus `_outboxSince`, the time the oldest of them was staged. Either both the change and
 * its events are stored, or neither is: no phantom event for a change that failed, no change whose
 * event can be lost.
 *
 * Publishing happens afterwards (see OutboxRelay): right after the write, and again by a periodic
 * sweep for documents whose `_outboxSince` is older than a grace period, which is how events
 * survive a crash between the write and the publish. An event leaves `_outbox` only after Kafka
 * acknowledged it; a crash between the acknowledgement and the removal publishes it again with
 * the same event id, which consumers drop (they dedupe by event id). Delivery is at least once,
 * exactly once in effect.
 *
 * Delete a document only once its `_outbox` is empty (or mark it deleted instead): events still in
 * a deleted document are never published.
 */
export const OUTBOX = '_outbox';
export const OUTBOX_SINCE = '_outboxSince';
/**
 * Changes with every staging: the relay clears `_outboxSince` only if no event was staged since it
 * read the outbox, by matching this scalar: with `_id` in the same filter, an index lookup on
 * every engine (a filter on the array itself, `$size: 0`, is not one everywhere).
 */
export const OUTBOX_VERSION = '_outboxVersion';

/**
 * An event as the outbox keeps it. Typed when staged (`OutgoingEvent<M>`: a topic's data must be of
 * its type), it is read back from the database as it is stored, and the publisher checks it again
 * against the topic's schema before it is sent.
 */
export interface StagedEvent {
  eventId: string;
  topic: string;
  key: string;
  type: string;
  data: unknown;
  occurredAt: string;
  /** The W3C trace of the change, so that a later publish (by the sweep, say) continues it. */
  trace?: Record<string, string>;
}

export interface OutboxFields {
  [OUTBOX]?: StagedEvent[];
  [OUTBOX_SINCE]?: Date;
  [OUTBOX_VERSION]?: string;
}

/**
 * Fixes each event's id and time now, so every later publish of it is the same event. M says what
 * the topics carry: the platform's topics unless a caller (a test's own catalog) says otherwise.
 */
export function stage<M extends TopicMap = PlatformTopics>(
  events: readonly OutgoingEvent<M>[],
  now = new Date(),
): StagedEvent[] {
  const trace: Record<string, string> = {};
  injectTraceContext(trace);
  return events.map((event) => ({
    eventId: event.eventId ?? randomUUID(),
    topic: event.topic,
    key: event.key,
    type: event.type,
    data: event.data,
    occurredAt: event.occurredAt ?? now.toISOString(),
    ...(Object.keys(trace).length > 0 ? { trace } : {}),
  }));
}

/** A new document carrying its first events: pass the result to insertOne. */
export function withOutbox<T extends Document, M extends TopicMap = PlatformTopics>(
  doc: T,
  events: readonly OutgoingEvent<M>[],
  now = new Date(),
): T & OutboxFields {
  return { ...doc, [OUTBOX]: stage<M>(events, now), [OUTBOX_SINCE]: now, [OUTBOX_VERSION]: randomUUID() };
}

/** Adds events to an update (updateOne, findOneAndUpdate, upsert), in the same atomic write. */
export function updateWithOutbox<T extends Document, M extends TopicMap = PlatformTopics>(
  update: UpdateFilter<T>,
  events: readonly OutgoingEvent<M>[],
  now = new Date(),
): UpdateFilter<T> {
  const u = update as Record<string, Record<string, unknown> | undefined>;
  return {
    ...update,
    $push: { ...(u.$push ?? {}), [OUTBOX]: { $each: stage<M>(events, now) } },
    $min: { ...(u.$min ?? {}), [OUTBOX_SINCE]: now },
    $set: { ...(u.$set ?? {}), [OUTBOX_VERSION]: randomUUID() },
  } as unknown as UpdateFilter<T>;
}
