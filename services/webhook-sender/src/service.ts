import { readFileSync } from 'node:fs';
import { TOPICS } from '@marketplace/contracts';
import {
  CopyProgress,
  createKafka,
  EventDecoder,
  EventSchemas,
  SchemaValidator,
  withGroupTimings,
} from '@marketplace/events';
import {
  gatewayGuards,
  openFromTransport,
  openWebhookSecret,
  publicKeyFrom,
  TRANSPORT_CONTEXTS,
} from '@marketplace/identity';
import { RateLimiter, RedisLock } from '@marketplace/redis';
import { groupTimingsOf, type ServiceDefinition } from '@marketplace/runtime';
import { attemptMetrics, queueGauges } from './adapters/attempt-metrics';
import { rateLimitMetrics } from './adapters/rate-limit-metrics';
import { AttemptQueue } from './adapters/attempt-queue';
import { SafeHttpClient } from '@marketplace/http';
import { DELIVERIES, webhookIndexes, webhookStore } from './adapters/store';
import { settings } from './config';
import { consumers } from './consumers';
import { WEBHOOK_SOURCE_TOPICS } from './domain/webhook-events';
import { adminGuard, adminIpLimit, perAdminLimit } from './http/admin-auth';
import { registerAdminRoutes } from './http/admin-routes';
import { registerRoutes } from './http/routes';
import { makeAttempt } from './usecases/attempt';
import { sendingSince } from './usecases/installations';
import type { WebhookContext } from './usecases/context';
import { ATTEMPT_TOPICS, deliveryKinds } from './usecases/delivery-kinds';

/** Webhook sender: what it owns, the topics it uses and its indexes, in one place. */
export const webhookSenderService: ServiceDefinition<typeof settings> = {
  name: 'webhook-sender',
  defaultPort: 4106,
  settings,
  // The domain topics (orders, deliveries) and provider-events are created here too: the sender may
  // start before their producers, and its consumers need them to exist.
  topics: [TOPICS.installations, ...WEBHOOK_SOURCE_TOPICS, TOPICS.providerEvents, ...ATTEMPT_TOPICS],
  indexes: webhookIndexes,
  outboxCollections: [DELIVERIES],
  async setup(context) {
    const { config } = context;
    // Tenant routes answer only requests whose identity the gateway signed; the administrator
    // routes only provider-delivery's administrator tokens.
    const gateway = gatewayGuards(publicKeyFrom(config.identityPublicKey), 'webhook-sender');
    context.routes.guard('tenant', gateway.tenant);
    // The administrator API: per-IP limit (before the token), the token, then the per-administrator limit.
    const redisPrefix = `${config.consumerGroupPrefix ?? 'webhook-sender'}:`;
    const limiter = new RateLimiter(context.redis, redisPrefix);
    const adminLimits = { perIp: config.adminRateLimitPerIp, perAdmin: config.adminRateLimitPerAdmin };
    const limitRejected = rateLimitMetrics(context.metrics);
    context.routes.guard(
      'admin',
      adminIpLimit(limiter, adminLimits, limitRejected),
      adminGuard(config.providerAdminTokenSecret, () => new Date()),
      perAdminLimit(limiter, adminLimits, limitRejected),
    );
    const http = new SafeHttpClient({
      connectTimeoutMs: config.connectTimeoutMs,
      responseTimeoutMs: config.responseTimeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      allowLoopbackHttp: config.allowLoopbackHttp,
      ...(config.extraCaFile ? { ca: readFileSync(config.extraCaFile) } : {}),
    });
    const ctx: WebhookContext = {
      store: webhookStore(context.db),
      outbox: context.outbox,
      http,
      kinds: deliveryKinds(config.retryTimeScale),
      unseal: {
        installationSecret: (installationId, sealed) =>
          openWebhookSecret(config.webhookSecretTransportKey, installationId, sealed),
        accountSecret: (accountId, sealed) =>
          openFromTransport(
            config.webhookSecretTransportKey,
            TRANSPORT_CONTEXTS.platformAccountSecret(accountId),
            sealed,
          ),
        callbackUrl: (providerDeliveryId, sealed) =>
          openFromTransport(
            config.webhookSecretTransportKey,
            TRANSPORT_CONTEXTS.deliveryCallbackUrl(providerDeliveryId),
            sealed,
          ),
      },
      metrics: attemptMetrics(context.metrics),
      locks: new RedisLock(context.redis, redisPrefix),
      attemptLeaseMs: config.connectTimeoutMs + config.responseTimeoutMs + 20_000,
      logger: context.logger,
      now: () => new Date(),
    };
    registerRoutes(context.routes, ctx);
    registerAdminRoutes(context.routes, ctx);

    // The attempt queue's own consumer group comes back after a crash as fast as the others.
    const kafka = withGroupTimings(
      createKafka({ brokers: config.kafkaBrokers, clientId: 'webhook-sender-attempts', logger: context.logger }),
      groupTimingsOf(config),
    );
    const groupPrefix = config.consumerGroupPrefix ?? 'webhook-sender';
    const admin = kafka.admin();
    await admin.connect();
    const installations = new CopyProgress(admin, `${groupPrefix}.installations`, TOPICS.installations);
    const attemptSchemas = new SchemaValidator(
      ATTEMPT_TOPICS.map((topic): [string, Record<string, unknown>] => [topic, context.catalog.get(topic).schema]),
    );
    const since = await sendingSince(ctx.store, ctx.now());
    const attemptsGroup = `${groupPrefix}.attempts`;
    const queue = new AttemptQueue(
      kafka,
      new EventDecoder(new EventSchemas(config.schemaRegistryUrl, context.catalog), attemptSchemas),
      {
        overall: config.concurrency,
        perEndpoint: config.concurrencyPerEndpoint,
        circuit: { failuresToTrip: config.circuitFailures, probeIntervalMs: config.circuitProbeIntervalMs },
      },
      {
        groupId: attemptsGroup,
        topics: ATTEMPT_TOPICS,
        maxWaiting: config.maxWaitingAttempts,
        firstAttemptRoom: config.concurrency * 4,
        handle: (job) => makeAttempt(ctx, job),
        holds: context.holds,
        since,
      },
      context.logger.child({ component: 'attempt-queue' }),
    );
    queueGauges(context.metrics, queue);
    context.consumerLag.watch(attemptsGroup, ATTEMPT_TOPICS);
    await queue.start();
    return {
      consumers: consumers(ctx, installations, since, config.installationsCopyStart === 'earliest'),
      stopWork: () => queue.stop(),
      onStop: async () => {
        await admin.disconnect();
        http.close();
      },
    };
  },
};
