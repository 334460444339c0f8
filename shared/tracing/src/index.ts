import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ATTR_SERVICE_NAME, ATTR_URL_FULL } from '@opentelemetry/semantic-conventions';
import type { RequestOptions } from 'node:http';

export interface TracingSettings {
  serviceName: string;
  /** OTLP/HTTP base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT). Without it nothing is exported. */
  endpoint?: string;
  /**
   * What outgoing HTTP spans record as `url.full`: the whole URL (the default), or its scheme, host
   * and port only, for a service whose calls go to URLs holding secrets in their path (the webhook
   * sender: a provider callback's path carries a confidential token).
   */
  outgoingUrls?: 'full' | 'origin';
}

export interface Tracing {
  exporting: boolean;
  shutdown(): Promise<void>;
}

/**
 * Must run before koa, kafkajs, mongodb and ioredis are loaded (each service's `src/tracing.ts`,
 * imported first by `main.ts`), because instrumentation patches modules as they are required.
 *
 * With an endpoint: the OpenTelemetry SDK with HTTP, Koa, kafkajs, MongoDB and ioredis
 * instrumentation, exporting spans over OTLP/HTTP. Without one: no SDK and no exporter, only the
 * W3C propagator and a context manager, so a trace id that arrives on a request or in Kafka
 * headers is still carried on to the events a service publishes.
 */
let active: Tracing | undefined;

/** The tracing started in this process, if any (the runtime shuts it down last). */
export function activeTracing(): Tracing | undefined {
  return active;
}

export function startTracing(settings: TracingSettings): Tracing {
  active ??= start(settings);
  return active;
}

/** The scheme, host and port of an outgoing request, as `url.full` of its span (no path, no query). */
export function outgoingOrigin(request: RequestOptions): string {
  const protocol = request.protocol ?? 'http:';
  // `hostname` wins over `host` (as in node:http); `host` may carry the port.
  const hostPort = request.hostname ? undefined : /^(.*?)(?::(\d+))?$/.exec(request.host ?? 'localhost');
  const host = request.hostname ?? hostPort?.[1] ?? 'localhost';
  const port = request.port ?? hostPort?.[2];
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${protocol}//${bracketed}${port ? `:${port}` : ''}`;
}

function start({ serviceName, endpoint, outgoingUrls = 'full' }: TracingSettings): Tracing {
  if (!endpoint) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    return { exporting: false, shutdown: async () => undefined };
  }
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }),
    textMapPropagator: new W3CTraceContextPropagator(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)/.test(req.url ?? ''),
        // The hook's attributes replace the instrumentation's own, `url.full` included.
        ...(outgoingUrls === 'origin'
          ? { startOutgoingSpanHook: (request: RequestOptions) => ({ [ATTR_URL_FULL]: outgoingOrigin(request) }) }
          : {}),
      }),
      new KoaInstrumentation(),
      new KafkaJsInstrumentation(),
      new MongoDBInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  return { exporting: true, shutdown: () => sdk.shutdown() };
}
