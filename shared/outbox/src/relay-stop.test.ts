import type { Db } from 'mongodb';
import type { EventPublisher } from '@marketplace/events';
import { createLogger } from '@marketplace/logging';
import { OUTBOX, OUTBOX_VERSION, type OutboxFields } from './outbox';
import { OutboxRelay } from './relay';

// A SIGTERM while the sweep works through a backlog: the sweep ends after the document in hand,
// and what it has not reached stays staged (the next sweep, of any process, publishes it). A
// database of three staged documents and a publisher that records; no Kafka, no database.

type Doc = OutboxFields & { _id: string };
const staged = (id: string): Doc => ({
  _id: id,
  [OUTBOX]: [
    {
      topic: 'orders',
      key: id,
      type: 'orders.created',
      data: {},
      eventId: `e-${id}`,
      occurredAt: '2026-12-01T00:00:00.000Z',
    },
  ],
  [OUTBOX_VERSION]: `v-${id}`,
});

function relayOver(docs: Doc[], onPublish: () => void) {
  const published: string[] = [];
  const cleared: string[] = [];
  const collection = {
    find: () => ({ sort: () => ({ limit: () => ({ toArray: async () => docs }) }) }),
    updateOne: async (filter: { _id: string }) => {
      cleared.push(filter._id);
      return { matchedCount: 1 };
    },
  };
  const publisher = {
    publishStored: async (events: { key: string }[]) => {
      published.push(...events.map((e) => e.key));
      onPublish();
      return [];
    },
  } as unknown as EventPublisher;
  const relay = new OutboxRelay({
    db: { collection: () => collection } as unknown as Db,
    publisher,
    collections: ['orders'],
    logger: createLogger({ service: 'test', level: 'silent' }),
    graceMs: 0,
  });
  return { relay, published, cleared };
}

describe('the outbox relay at a stop', () => {
  it('sweeps every staged document while running', async () => {
    const { relay, published } = relayOver([staged('a'), staged('b'), staged('c')], () => undefined);
    expect(await relay.sweep()).toBe(3);
    expect(published).toEqual(['a', 'b', 'c']);
  });

  it('ends a sweep under way after the document in hand, leaving the rest staged', async () => {
    let stopped: Promise<void> | undefined;
    const { relay, published, cleared } = relayOver([staged('a'), staged('b'), staged('c')], () => {
      stopped ??= relay.stop();
    });
    expect(await relay.sweep()).toBe(1);
    await stopped;
    expect(published).toEqual(['a']);
    expect(cleared).toEqual(['a']); // b and c keep their events and their pending marker
  });
});
