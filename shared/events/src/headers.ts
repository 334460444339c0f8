import type { IHeaders } from 'kafkajs';
import { context, propagation, type Context } from '@opentelemetry/api';

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

/** The context a consumer handler should run in: the producer's trace continues. */
export function extractTraceContext(headers: IHeaders | undefined): Context {
  const carrier: Record<string, string> = {};
  for (const name of [HEADER.traceparent, HEADER.tracestate]) {
    const value = headerText(headers, name);
    if (value !== undefined) carrier[name] = value;
  }
  return propagation.extract(context.active(), carrier);
}
