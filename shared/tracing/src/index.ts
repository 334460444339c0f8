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
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface TracingSettings {
  serviceName: string;
  /** OTLP/HTTP base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT). Without it nothing is exported. */
  endpoint?: string;
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

function start({ serviceName, endpoint }: TracingSettings): Tracing {
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
