import { randomBytes } from 'node:crypto';
import { context, propagation, trace, TraceFlags, type Context } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The trace a request belongs to, which is also the correlation id of its log lines and of the
 * events it leads to. When OpenTelemetry's HTTP instrumentation runs (an OTLP endpoint is set), it
 * has already made the request's span; otherwise the caller's `traceparent` is continued, or a
 * trace id is made up (not sampled) so that logs and Kafka headers still share one id.
 */
export function requestTraceContext(headers: IncomingHttpHeaders): Context {
  const active = context.active();
  if (trace.getSpanContext(active)) return active;
  const extracted = propagation.extract(active, headers);
  if (trace.getSpanContext(extracted)) return extracted;
  return trace.setSpanContext(active, {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: TraceFlags.NONE,
    isRemote: false,
  });
}

export function traceIdOf(ctx: Context): string | undefined {
  return trace.getSpanContext(ctx)?.traceId;
}
