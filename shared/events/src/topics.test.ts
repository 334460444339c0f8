import type { InstallationChanged, OrderEvent } from '@marketplace/contracts';
import { quietLogger } from '@marketplace/testing';
import type { EventHandler, OutgoingEvent, PlatformTopics } from './index';

// What the types promise, checked by the compiler (`npx tsc -p tsconfig.tests.json`): a handler
// receives its topics' payloads, told apart by `event.topic`; a producer must build its topic's.

const installation: InstallationChanged = {
  installationId: 'i',
  tenantId: 't',
  appId: 'a',
  contractVersion: 1,
  status: 'Connected',
  connected: true,
  webhookUrl: null,
  subscribedEvents: [],
  webhookSecretSealed: null,
  revision: 1,
  changedAt: '2026-01-01T00:00:00.000Z',
};

describe('topic types', () => {
  it('gives a consumer of several topics one event per topic, narrowed by event.topic', async () => {
    const seen: string[] = [];
    const handler: EventHandler<PlatformTopics, 'orders' | 'installations'> = async (event) => {
      if (event.topic === 'orders') {
        const order: OrderEvent = event.data;
        const type: 'orders.created' | 'orders.status-changed' | 'orders.cancelled' | 'payment.completed' = event.type;
        seen.push(`${type} ${order.orderId}`);
        return;
      }
      const changed: InstallationChanged = event.data;
      // @ts-expect-error an installation event is no order event
      const notAnOrder: OrderEvent = event.data;
      seen.push(`${event.type} ${changed.installationId} ${typeof notAnOrder}`);
    };
    await handler({
      topic: 'installations',
      type: 'installation.changed',
      data: installation,
      partition: 0,
      offset: '0',
      key: 'i',
      eventId: 'e',
      occurredAt: undefined,
      headers: {},
      log: quietLogger(),
    });
    expect(seen).toEqual(['installation.changed i object']);
  });

  it('refuses a produced event whose data or event type is not its topic’s', () => {
    const fine: OutgoingEvent = { topic: 'installations', key: 'i', type: 'installation.changed', data: installation };
    // @ts-expect-error an installation's data on the orders topic
    const wrongData: OutgoingEvent = { topic: 'orders', key: 'i', type: 'orders.created', data: installation };
    // @ts-expect-error an event type the topic does not declare
    const wrongType: OutgoingEvent = { topic: 'installations', key: 'i', type: 'orders.created', data: installation };
    expect([fine, wrongData, wrongType].map((e) => e.type)).toEqual([
      'installation.changed',
      'orders.created',
      'orders.created',
    ]);
  });
});
