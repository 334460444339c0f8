import { randomBytes, randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import { promises as dns } from 'node:dns';
import { TOPICS } from '@marketplace/contracts';
import { SafeHttpClient } from '@marketplace/http';
import type { ServiceContext, ServiceDefinition } from '@marketplace/runtime';
import { SecretBox } from '@marketplace/identity';
import { RateLimiter } from '@marketplace/redis';
import { KeyCache } from './adapters/key-cache';
import { providerIndexes, providerOutboxCollections, providerStore } from './adapters/store';
import { providerMetrics } from './adapters/provider-metrics';
import { stagedEvents } from './adapters/staged-events';
import { TransportSecrets } from './adapters/transport-secrets';
import { RedisWebhookTestMemory } from './adapters/webhook-test-memory';
import { settings } from './config';
import { consumers } from './consumers';
import { RateLimits, SIMULATOR_PASS_HEADER } from './http/rate-limits';
import { registerRoutes } from './http/routes';
import { Dispatcher } from './runtime/dispatcher';
import { adminTokenSource, CourierSimulator } from './simulator';
import type { ProviderContext } from './usecases/context';

type Context = ServiceContext<typeof settings>;

/** The address this process is reached at from the same machine (a wildcard bind answers on loopback). */
const loopbackIfAny = (host: string): string => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

/** Provider delivery: what it owns, the topics it uses and its indexes, in one place. */
export const providerDeliveryService: ServiceDefinition<typeof settings> = {
  name: 'provider-delivery',
  defaultPort: 4105,
  errorFormat: 'envelope', // the provider contract's error envelope, not problem+json
  settings,
  topics: [TOPICS.providerEvents],
  indexes: providerIndexes,
  // Events to platforms are staged in the deliveries they are about; secret rotations in the accounts.
  outboxCollections: providerOutboxCollections,
  setup(context) {
    const metrics = providerMetrics(context.metrics);
    // The courier simulator's calls pass this process's own rate limits with a random pass of its own.
    const simulatorPass = context.config.simulatorEnabled ? randomBytes(32).toString('base64url') : undefined;
    const rateLimits = rateLimitsOf(context, (scope) => metrics.rateLimited(scope), simulatorPass);
    const ctx = useCaseContext(context, rateLimits, metrics);
    registerRoutes(context, ctx);
    const dispatcher = startDispatcher(context, ctx);
    const simulator = startSimulator(context, ctx, simulatorPass);
    return {
      consumers: consumers(context),
      stopWork: async () => {
        await simulator?.stop();
        await dispatcher.stop();
      },
    };
  },
};

/** The HTTP surfaces' rate limits, counted in Redis, from this deployment's settings. */
function rateLimitsOf(
  context: Context,
  onRejected: ConstructorParameters<typeof RateLimits>[3],
  simulatorPass: string | undefined,
): RateLimits {
  const { config } = context;
  return new RateLimits(
    new RateLimiter(context.redis, config.redisKeyPrefix),
    context.logger,
    {
      perIp: {
        admin: config.adminRateLimitPerIp,
        platform: config.platformRateLimitPerIp,
        courier: config.courierRateLimitPerIp,
        public: config.publicRateLimitPerIp,
      },
      perAdmin: config.adminRateLimitPerAdmin,
      perDriver: config.courierRateLimitPerDriver,
      perTrackingToken: config.trackingRateLimitPerToken,
    },
    onRejected,
    simulatorPass,
  );
}

/** The use cases' ports, wired to this process's adapters. */
function useCaseContext(
  context: Context,
  rateLimits: RateLimits,
  metrics: ProviderContext['metrics'],
): ProviderContext {
  const { config } = context;
  return {
    store: providerStore(context.db),
    events: stagedEvents(context.outbox),
    box: new SecretBox(config.secretKey),
    keyCache: new KeyCache(),
    rateLimits,
    keyHashSecret: config.keyHashSecret,
    allowLoopbackHttpUrls: config.allowLoopbackHttpUrls,
    transportKey: config.webhookSecretTransportKey,
    transportSecrets: new TransportSecrets(),
    webhookTests: new RedisWebhookTestMemory(context.redis, config.redisKeyPrefix, context.logger),
    // The webhook test's one attempt: the webhook sender's limits (3 s to connect, 10 s for the answer),
    // inside the test's own deadline of 10 s for the whole call (usecases/webhooks/send-test-event.ts).
    http: new SafeHttpClient({
      connectTimeoutMs: 3_000,
      responseTimeoutMs: 10_000,
      maxResponseBytes: 4_096,
      allowLoopbackHttp: config.allowLoopbackHttpUrls,
    }),
    publicBaseUrl: config.publicBaseUrl || `http://${loopbackIfAny(config.host)}:${config.port}`,
    resolveHost: async (hostname) => (await dns.lookup(hostname, { all: true })).map((a) => a.address),
    metrics,
    logger: context.logger,
    now: () => new Date(),
    newId: randomUUID,
  };
}

/** The dispatch loop of this instance, counting what each decision did. */
function startDispatcher(context: Context, ctx: ProviderContext): Dispatcher {
  const dispatchSteps = new Counter({
    name: 'provider_dispatch_steps_total',
    help: 'Dispatch decisions by what they did: offered, waiting, failed (no driver took it), done, raced.',
    labelNames: ['step'],
    registers: [context.metrics],
  });
  const dispatcher = new Dispatcher(ctx, context.logger, undefined, (step) => dispatchSteps.inc({ step }));
  dispatcher.start();
  return dispatcher;
}

/**
 * Local setups, tests and the demo: simulated drivers, clients of this very courier API over HTTP
 * (they start calling once /healthz answers). One process per deployment runs it.
 */
function startSimulator(
  context: Context,
  ctx: ProviderContext,
  simulatorPass: string | undefined,
): CourierSimulator | undefined {
  const { config } = context;
  if (!config.simulatorEnabled) return undefined;
  const simulator = new CourierSimulator({
    baseUrl: `http://${loopbackIfAny(config.host)}:${config.port}`,
    adminToken: adminTokenSource(config.adminTokenSecret),
    headers: simulatorPass ? { [SIMULATOR_PASS_HEADER]: simulatorPass } : {},
    listAccounts: () => ctx.store.accounts.listSimulated(),
    logger: context.logger,
  });
  simulator.start();
  return simulator;
}
