import type { IHeaders } from 'kafkajs';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
} from '@opentelemetry/api';

/**
 * Message headers. The value is the event's data alone (schema-registry wire format); everything
 * about the event travels here, so a consumer can dedupe, route and trace without decoding.
 */
export const HEADER = {
  eventId: 'event-id',
  eventType: 'event-type',
  occurredAt: 'occurred-at',
  producer: 'producer',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
} as const;

export const DLT_HEADER = {
  reason: 'dlt-reason',
  errorCode: 'dlt-error-code',
  sourceTopic: 'dlt-source-topic',
  sourcePartition: 'dlt-source-partition',
  sourceOffset: 'dlt-source-offset',
  consumerGroup: 'dlt-consumer-group',
  failedAt: 'dlt-failed-at',
} as const;

export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  return Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
}

/** Writes the active W3C trace context (traceparent, tracestate) into `headers`. */
export function injectTraceContext(headers: Record<string, string>, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers);
}

/** The W3C trace headers of a message, as text. */
function traceCarrier(headers: IHeaders | undefined): Record<string, string> {
  const carrier: Record<string, string> = {};
  for (const name of [HEADER.traceparent, HEADER.tracestate]) {
    const value = headerText(headers, name);
    if (value !== undefined) carrier[name] = value;
  }
  return carrier;
}

/**
 * The context a consumer handler should run in: the producer's trace continues. When the SDK runs,
 * kafkajs's instrumentation has already made this message's CONSUMER span (a child of the
 * producer's) the active one: what the handler does belongs beneath that span, so the active context
 * is kept when it is already in the message's trace.
 */
export function extractTraceContext(headers: IHeaders | undefined): Context {
  const active = context.active();
  const extracted = propagation.extract(active, traceCarrier(headers));
  const remote = trace.getSpanContext(extracted);
  if (remote && trace.getSpanContext(active)?.traceId === remote.traceId) return active;
  return extracted;
}

/**
 * The trace a message was published in, on its own (no active context mixed in): for a message
 * handled later than it is read, outside kafkajs's eachMessage (a webhook attempt waiting for its
 * due time), whose processing span `inConsumerSpan` makes.
 */
export function messageTraceContext(headers: IHeaders | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, traceCarrier(headers));
}

/**
 * The context to publish a stored event in (one the outbox staged, published later by the relay or
 * its sweep): the trace of the change that staged it, so the producer span and the trace headers
 * kafkajs's instrumentation writes belong to it, not to whatever runs the relay. The active context
 * is kept when it is already in that trace (the fast path, right after the write: its live span is
 * the better parent) or when the event carries no trace.
 */
export function storedTraceContext(traceHeaders: Record<string, string> | undefined): Context {
  const active = context.active();
  if (!traceHeaders) return active;
  const staged = propagation.extract(ROOT_CONTEXT, traceHeaders);
  const stagedSpan = trace.getSpanContext(staged);
  if (!stagedSpan || trace.getSpanContext(active)?.traceId === stagedSpan.traceId) return active;
  return staged;
}

/**
 * Runs `work`, the processing of one consumed message, in a CONSUMER span of its own beneath
 * `parent` (the message's trace, `messageTraceContext`): for processing that kafkajs's
 * instrumentation does not wrap (it spans eachMessage, not work done after a batch was read). The
 * span ends when the work does and records whether it failed. Without the SDK the span records
 * nothing but still carries the trace on (to the events the work stages, say).
 */
export function inConsumerSpan<T>(
  topic: string,
  parent: Context,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  const span = trace.getTracer('@marketplace/events').startSpan(
    `process ${topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.destination.name': topic,
        ...attributes,
      },
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await work();
    } catch (error) {
      // The error's class only: a message may quote what must not leave the process (a URL).
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.constructor.name : typeof error);
      throw error;
    } finally {
      span.end();
    }
  });
}
