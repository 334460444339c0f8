import { readFileSync } from 'node:fs';
import { TOPICS } from '@marketplace/contracts';
import {
  CopyProgress,
  createKafka,
  EventDecoder,
  EventSchemas,
  SchemaValidator,
  withGroupTimings,
  kafkaConnectionOf,
  registryConnectionOf,
} from '@marketplace/events';
import { SafeHttpClient } from '@marketplace/http';
import {
  gatewayGuards,
  openFromTransport,
  openWebhookSecret,
  publicKeyFrom,
  TRANSPORT_CONTEXTS,
} from '@marketplace/identity';
import { RateLimiter, RedisLock } from '@marketplace/redis';
import { groupTimingsOf, type ServiceContext, type ServiceDefinition } from '@marketplace/runtime';
import { attemptMetrics, queueGauges } from './adapters/attempt-metrics';
import { AttemptQueue } from './adapters/attempt-queue';
import { rateLimitMetrics } from './adapters/rate-limit-metrics';
import { DELIVERIES, webhookIndexes, webhookStore } from './adapters/store';
import { settings } from './config';
import { consumers } from './consumers';
import { deliveryKinds } from './domain/delivery-kinds';
import { ATTEMPT_TOPICS } from './domain/retry-tiers';
import { WEBHOOK_SOURCE_TOPICS } from './domain/webhook-events';
import { adminGuard, adminIpLimit, perAdminLimit } from './http/admin-auth';
import { registerAdminRoutes } from './http/admin-routes';
import { registerPartnerRoutes } from './http/partner-routes';
import { registerRoutes } from './http/routes';
import { claimSendingSince } from './usecases/claim-sending-since';
import type { WebhookContext } from './usecases/context';
import type { Unsealer } from './usecases/ports';
import { makeAttempt } from './usecases/make-attempt';

type Context = ServiceContext<typeof settings>;
type Config = Context['config'];
type Kafka = ReturnType<typeof createKafka>;

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
    guardRoutes(context);
    const http = new SafeHttpClient({
      connectTimeoutMs: config.connectTimeoutMs,
      responseTimeoutMs: config.responseTimeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      allowLoopbackHttp: config.allowLoopbackHttp,
      ...(config.extraCaFile ? { ca: readFileSync(config.extraCaFile) } : {}),
    });
    const ctx = webhookContext(context, http);
    registerRoutes(context.routes, ctx);
    registerPartnerRoutes(context.routes, ctx);
    registerAdminRoutes(context.routes, ctx);

    // The attempt queue's own consumer group comes back after a crash as fast as the others.
    const kafka = withGroupTimings(
      createKafka({
        connection: kafkaConnectionOf(config),
        clientId: 'webhook-sender-attempts',
        logger: context.logger,
      }),
      groupTimingsOf(config),
    );
    const groupPrefix = config.consumerGroupPrefix ?? 'webhook-sender';
    const admin = kafka.admin();
    await admin.connect();
    const installations = new CopyProgress(admin, `${groupPrefix}.installations`, TOPICS.installations);
    const since = await claimSendingSince(ctx.store, ctx.now());
    const queue = await startAttemptQueue(context, ctx, kafka, since);
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

/**
 * Tenant and partner routes answer only requests whose identity the gateway signed; the administrator routes
 * only provider-delivery's administrator tokens: per-IP limit (before the token), the token, then
 * the per-administrator limit.
 */
function guardRoutes(context: Context): void {
  const { config } = context;
  const gateway = gatewayGuards(publicKeyFrom(config.identityPublicKey), 'webhook-sender');
  context.routes.guard('tenant', gateway.tenant);
  context.routes.guard('partner', gateway.partner);
  const limiter = new RateLimiter(context.redis, redisPrefixOf(config));
  const adminLimits = { perIp: config.adminRateLimitPerIp, perAdmin: config.adminRateLimitPerAdmin };
  const limitRejected = rateLimitMetrics(context.metrics);
  context.routes.guard(
    'admin',
    adminIpLimit(limiter, adminLimits, limitRejected),
    adminGuard(config.providerAdminTokenSecret, () => new Date()),
    perAdminLimit(limiter, adminLimits, limitRejected),
  );
}

/** The use cases' ports, wired to their adapters. */
function webhookContext(context: Context, http: SafeHttpClient): WebhookContext {
  const { config } = context;
  return {
    // The deliveries repository publishes what it stages through the outbox relay.
    store: webhookStore(context.db, context.outbox),
    http,
    kinds: deliveryKinds(config.retryTimeScale),
    unseal: unsealer(config.webhookSecretTransportKey),
    metrics: attemptMetrics(context.metrics),
    locks: new RedisLock(context.redis, redisPrefixOf(config)),
    attemptLeaseMs: config.connectTimeoutMs + config.responseTimeoutMs + 20_000,
    logger: context.logger,
    now: () => new Date(),
  };
}

/** Opens what arrives sealed under WEBHOOK_SECRET_TRANSPORT_KEY, each bound to its owner. */
function unsealer(transportKey: Config['webhookSecretTransportKey']): Unsealer {
  return {
    installationSecret: (installationId, sealed) => openWebhookSecret(transportKey, installationId, sealed),
    accountSecret: (accountId, sealed) =>
      openFromTransport(transportKey, TRANSPORT_CONTEXTS.platformAccountSecret(accountId), sealed),
    callbackUrl: (providerDeliveryId, sealed) =>
      openFromTransport(transportKey, TRANSPORT_CONTEXTS.deliveryCallbackUrl(providerDeliveryId), sealed),
  };
}

/** The attempt queue (adapters/attempt-queue.ts), started: it reads the attempt topics and makes each attempt when due. */
async function startAttemptQueue(
  context: Context,
  ctx: WebhookContext,
  kafka: Kafka,
  since: Date,
): Promise<AttemptQueue> {
  const { config } = context;
  const attemptSchemas = new SchemaValidator(
    ATTEMPT_TOPICS.map((topic): [string, Record<string, unknown>] => [topic, context.catalog.get(topic).schema]),
  );
  const attemptsGroup = `${config.consumerGroupPrefix ?? 'webhook-sender'}.attempts`;
  const queue = new AttemptQueue(
    kafka,
    new EventDecoder(new EventSchemas(registryConnectionOf(config), context.catalog), attemptSchemas),
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
  return queue;
}

/** Where the sender's Redis keys (rate limits, locks) live. */
function redisPrefixOf(config: Config): string {
  return `${config.consumerGroupPrefix ?? 'webhook-sender'}:`;
}
