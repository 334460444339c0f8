// Imported first by main.ts: instrumentation must patch koa, kafkajs, mongodb and ioredis before
// anything else loads them.
import { startTracing } from '@marketplace/tracing';

// Outgoing spans name the receiver's scheme, host and port only: a provider callback's URL path
// holds a confidential token, which must not leave the process in a span either.
startTracing({
  serviceName: 'webhook-sender',
  endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
  outgoingUrls: 'origin',
});
