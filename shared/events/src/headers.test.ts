import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { startTracing } from '@marketplace/tracing';
import {
  extractTraceContext,
  inConsumerSpan,
  injectTraceContext,
  messageTraceContext,
  storedTraceContext,
} from './headers';

// Without an OTLP endpoint there is no SDK: no span is recorded, yet the trace id of a message
// must still reach what its processing publishes (the propagation-only mode).
startTracing({ serviceName: 'test' });

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
const activeTraceparent = () => {
  const carrier: Record<string, string> = {};
  injectTraceContext(carrier);
  return carrier.traceparent;
};
const inSpanContext = (id: string, spanId: string) =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId: id, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false });

it("runs a consumer handler in the message's trace, keeping an active span of that trace as its parent", () => {
  const headers = { traceparent: Buffer.from(traceparent) };
  expect(context.with(ROOT_CONTEXT, () => trace.getSpanContext(extractTraceContext(headers))?.spanId)).toBe(
    '00f067aa0ba902b7',
  );
  // kafkajs's instrumentation made the message's CONSUMER span the active one: it stays the parent.
  const consumer = inSpanContext(traceId, '1111111111111111');
  expect(context.with(consumer, () => trace.getSpanContext(extractTraceContext(headers))?.spanId)).toBe(
    '1111111111111111',
  );
  // An active span of another trace does not win over the message's.
  const other = inSpanContext('0af7651916cd43dd8448eb211c80319c', '2222222222222222');
  expect(context.with(other, () => trace.getSpanContext(extractTraceContext(headers))?.traceId)).toBe(traceId);
});

it('carries the trace of a message processed later on to what the processing stages, without an SDK', async () => {
  const staged = await context.with(inSpanContext('0af7651916cd43dd8448eb211c80319c', '3333333333333333'), () =>
    inConsumerSpan('webhook-attempts', messageTraceContext({ traceparent }), {}, async () => activeTraceparent()),
  );
  expect(staged).toBe(traceparent);
});

it('publishes a stored event in the trace it was staged in, unless the active context is already in it', () => {
  const elsewhere = inSpanContext('0af7651916cd43dd8448eb211c80319c', '4444444444444444');
  const restored = context.with(elsewhere, () => storedTraceContext({ traceparent }));
  expect(trace.getSpanContext(restored)).toMatchObject({ traceId, spanId: '00f067aa0ba902b7' });
  const live = inSpanContext(traceId, '5555555555555555');
  expect(context.with(live, () => storedTraceContext({ traceparent }))).toBe(live);
  expect(context.with(elsewhere, () => storedTraceContext(undefined))).toBe(elsewhere);
  expect(propagation.fields()).toContain('traceparent');
});
