import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import {
  createKafka,
  EventPublisher,
  EventSchemas,
  loadTopicCatalog,
  SchemaValidator,
  type OutgoingEvent,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
} from '@marketplace/events';
import { quietLogger, stackEnv } from '@marketplace/testing';

/** One injected delivery: its id and the due time of its second attempt. */
export interface StormDelivery {
  id: string;
  dueAt: number;
}

/**
 * A storm of retries due now: `count` partner webhooks to the installation, each with its first
 * attempt failed (connection refused) and its second due, written as the sender itself writes them
 * (the delivery, then the attempt message on the first retry tier). Due times are one millisecond
 * apart, in the order returned, and long past (before anything the test does next).
 */
export async function injectRetryStorm(
  db: Db,
  owner: { tenantId: string; installationId: string },
  count: number,
): Promise<StormDelivery[]> {
  const base = Date.now() - 60_000;
  const storm: StormDelivery[] = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), dueAt: base + i }));
  const docs = storm.map(({ id, dueAt }) => {
    const occurredAt = new Date(dueAt - 120_000).toISOString();
    const data = { orderId: randomUUID(), orderNumber: '1', status: 'Pending' };
    return {
      _id: id as never,
      ...owner,
      kind: 'partner-webhook',
      type: 'orders.created',
      sourceEventId: randomUUID(),
      occurredAt,
      body: JSON.stringify({ id, type: 'orders.created', version: 1, occurredAt, data }),
      status: 'pending',
      round: 1,
      nextAttempt: 2,
      nextAttemptAt: new Date(dueAt),
      attempts: [
        {
          round: 1,
          attempt: 1,
          at: new Date(dueAt - 120_000),
          statusCode: null,
          latencyMs: 1,
          errorClass: 'connect',
          verdict: 'retry',
        },
      ],
      reason: null,
      createdAt: new Date(dueAt - 120_000),
      updatedAt: new Date(dueAt),
    };
  });
  for (let i = 0; i < docs.length; i += 500) await db.collection('deliveries').insertMany(docs.slice(i, i + 500));

  const catalog = loadTopicCatalog();
  const kafka = createKafka({
    connection: kafkaConnectionFromEnv(stackEnv()),
    clientId: 'storm-it',
    logger: quietLogger(),
  });
  const publisher = new EventPublisher(
    kafka,
    catalog,
    new EventSchemas(registryConnectionFromEnv(stackEnv()), catalog),
    new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])),
    'storm-it',
  );
  await publisher.connect();
  try {
    const events: OutgoingEvent[] = storm.map(({ id, dueAt }) => ({
      topic: 'webhook-attempts.retry-1',
      key: owner.installationId,
      type: 'webhook.attempt',
      data: {
        deliveryId: id,
        installationId: owner.installationId,
        round: 1,
        attempt: 2,
        dueAt: new Date(dueAt).toISOString(),
      },
    }));
    for (let i = 0; i < events.length; i += 500) await publisher.publish(events.slice(i, i + 500));
  } finally {
    await publisher.disconnect();
  }
  return storm;
}
