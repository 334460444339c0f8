import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Context } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import type { Db } from 'mongodb';
import {
  EventPublisher,
  extractTraceContext,
  inConsumerSpan,
  messageTraceContext,
  type EventSchemas,
  type OutgoingEvent,
  type SchemaValidator,
  type TopicCatalog,
} from '@marketplace/events';
import { createLogger } from '@marketplace/logging';
import { startTracing } from '@marketplace/tracing';
import type { Kafka, Message, ProducerBatch } from 'kafkajs';
import { OUTBOX, withOutbox, type OutboxFields } from './outbox';
import { OutboxRelay } from './relay';

// The trace of a partner request across the outbox, with spans recorded in memory: the request's
// span, the producer span of its event (published later by the relay's sweep, from an unrelated
// context), the consumer's span, the attempt the consumer stages in its own outbox, and the
// attempt's processing and HTTP request. No Kafka, no database: a producer that does what
// kafkajs's instrumentation does (a PRODUCER span per message, parented on the active context,
// written into the message's headers) and a database of one document.

startTracing({ serviceName: 'test' }); // no endpoint: context manager and W3C propagator only
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
const tracer = trace.getTracer('outbox-trace-test');

const sent: { topic: string; message: Message }[] = [];
const instrumentedProducer = {
  async sendBatch(batch: ProducerBatch) {
    for (const { topic, messages } of batch.topicMessages ?? [])
      for (const message of messages) {
        const span = tracer.startSpan(`send ${topic}`, { kind: SpanKind.PRODUCER });
        message.headers ??= {};
        propagation.inject(trace.setSpan(context.active(), span), message.headers);
        span.end();
        sent.push({ topic, message });
      }
    return [];
  },
};
const publisher = new EventPublisher(
  { producer: () => instrumentedProducer } as unknown as Kafka,
  { get: () => ({ eventTypes: ['orders.created', 'webhook.attempt'] }) } as unknown as TopicCatalog,
  { encode: async (_topic: string, data: unknown) => Buffer.from(JSON.stringify(data)) } as unknown as EventSchemas,
  { problems: () => [] } as unknown as SchemaValidator,
  'test',
);

/** A relay over one collection whose sweep finds `doc` (and whose clear always succeeds). */
function relayOver(doc: OutboxFields & { _id: string }): OutboxRelay {
  const collection = {
    find: () => ({ sort: () => ({ limit: () => ({ toArray: async () => [doc] }) }) }),
    updateOne: async () => ({ matchedCount: 1 }),
  };
  return new OutboxRelay({
    db: { collection: () => collection } as unknown as Db,
    publisher,
    collections: ['docs'],
    logger: createLogger({ service: 'test', level: 'silent' }),
    graceMs: 0,
  });
}

/** The relay's sweep, run as a timer runs it: in a trace of its own, unrelated to the events'. */
async function sweepElsewhere(doc: OutboxFields & { _id: string }): Promise<void> {
  const tick = tracer.startSpan('unrelated tick', {}, ROOT_CONTEXT);
  await context.with(trace.setSpan(ROOT_CONTEXT, tick), () => relayOver(doc).sweep());
  tick.end();
}

const orderCreated: OutgoingEvent = {
  topic: 'orders',
  key: 'o-1',
  type: 'orders.created',
  data: {
    tenantId: 't-1',
    orderId: 'o-1',
    orderNumber: '1001',
    status: 'Pending',
    sourceInstallationId: 'i-1',
    externalOrderId: 'ext-1',
  },
};
const attemptEvent = {
  topic: 'webhook-attempts',
  key: 'i-1',
  type: 'webhook.attempt',
  data: { deliveryId: 'd-1', installationId: 'i-1', round: 1, attempt: 1, dueAt: '2026-05-01T12:00:00.000Z' },
} as unknown as OutgoingEvent;

const named = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name)!;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const inSpan = <T>(span: { spanContext(): unknown }, work: () => T, parent: Context = context.active()) =>
  context.with(trace.setSpan(parent, span as never), work);

beforeEach(() => {
  exporter.reset();
  sent.length = 0;
});

it('publishes an outbox event in the trace of the request that staged it, and the trace goes on through consumer, attempt and HTTP request', async () => {
  // The owning service's request stages the event with its change (and answers before it is sent).
  const request = tracer.startSpan('POST /orders', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  const order = inSpan(request, () => withOutbox({ _id: 'o-1' }, [orderCreated]), ROOT_CONTEXT);
  request.end();
  expect(order[OUTBOX]![0]!.trace).toEqual({ traceparent: expect.stringContaining(request.spanContext().traceId) });

  // The sweep publishes it later: the producer span is the request's child, and so is the header.
  await sweepElsewhere(order);
  const send = named('send orders');
  expect(send.spanContext().traceId).toBe(request.spanContext().traceId);
  expect(parentOf(send)).toBe(request.spanContext().spanId);
  const published = sent[0]!.message.headers!;
  expect(published.traceparent).toBe(`00-${send.spanContext().traceId}-${send.spanContext().spanId}-01`);

  // The consumer: kafkajs's instrumentation makes the CONSUMER span (the producer's child) active;
  // the handler keeps it as its parent, and the attempt it stages carries it on.
  const consumed = tracer.startSpan(
    'process orders',
    { kind: SpanKind.CONSUMER },
    propagation.extract(ROOT_CONTEXT, published),
  );
  const delivery = inSpan(
    consumed,
    () => context.with(extractTraceContext(published), () => withOutbox({ _id: 'd-1' }, [attemptEvent])),
    ROOT_CONTEXT,
  );
  consumed.end();
  expect(parentOf(named('process orders'))).toBe(send.spanContext().spanId);
  sent.length = 0;
  await sweepElsewhere(delivery);
  const sendAttempt = named('send webhook-attempts');
  expect(parentOf(sendAttempt)).toBe(consumed.spanContext().spanId);

  // The attempt, made at its due time outside eachMessage: its span and the HTTP request beneath it.
  await inConsumerSpan('webhook-attempts', messageTraceContext(sent[0]!.message.headers), {}, async () => {
    tracer.startSpan('POST', { kind: SpanKind.CLIENT }).end();
  });
  const attempt = named('process webhook-attempts');
  expect(attempt.kind).toBe(SpanKind.CONSUMER);
  expect(parentOf(attempt)).toBe(sendAttempt.spanContext().spanId);
  expect(parentOf(named('POST'))).toBe(attempt.spanContext().spanId);

  const traces = new Set(
    exporter
      .getFinishedSpans()
      .filter((s) => s.name !== 'unrelated tick')
      .map((s) => s.spanContext().traceId),
  );
  expect([...traces]).toEqual([request.spanContext().traceId]);
});

it('sends the events of one document staged by different requests each in its own trace, in their order', async () => {
  const first = tracer.startSpan('PATCH first', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  const second = tracer.startSpan('PATCH second', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  const a = inSpan(first, () => withOutbox({ _id: 'o-2' }, [orderCreated, { ...orderCreated, key: 'o-2b' }]));
  const b = inSpan(second, () => withOutbox({ _id: 'o-2' }, [{ ...orderCreated, key: 'o-2c' }]));
  first.end();
  second.end();
  await sweepElsewhere({ _id: 'o-2', [OUTBOX]: [...a[OUTBOX]!, ...b[OUTBOX]!] });

  expect(sent.map((s) => s.message.key)).toEqual(['o-1', 'o-2b', 'o-2c']);
  const traceOf = (i: number) => String(sent[i]!.message.headers!.traceparent).split('-')[1];
  expect([traceOf(0), traceOf(1), traceOf(2)]).toEqual([
    first.spanContext().traceId,
    first.spanContext().traceId,
    second.spanContext().traceId,
  ]);
});

it('fails the attempt span when the attempt fails, naming the error class only', async () => {
  const parent = messageTraceContext({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
  await expect(
    inConsumerSpan('webhook-attempts', parent, {}, async () => {
      throw new TypeError('secret https://example.com/cb/token-123');
    }),
  ).rejects.toThrow(TypeError);
  const attempt = named('process webhook-attempts');
  expect(attempt.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  expect(parentOf(attempt)).toBe('00f067aa0ba902b7');
  expect(attempt.status).toEqual({ code: 2 });
  expect(attempt.attributes['error.type']).toBe('TypeError');
  expect(JSON.stringify(attempt.attributes)).not.toContain('token-123');
});
