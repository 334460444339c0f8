// Imported first by main.ts: instrumentation must patch koa, kafkajs, mongodb and ioredis before
// anything else loads them.
import { startTracing } from '@marketplace/tracing';

startTracing({ serviceName: 'gateway-auth', endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT });
