import { randomBytes, randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import { promises as dns } from 'node:dns';
import { TOPICS } from '@marketplace/contracts';
import { SafeHttpClient } from '@marketplace/http';
import type { ServiceDefinition } from '@marketplace/runtime';
import { SecretBox } from '@marketplace/identity';
import { RateLimiter } from '@marketplace/redis';
import { providerIndexes, providerStore } from './adapters/store';
import { providerMetrics } from './adapters/provider-metrics';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import type { ProviderContext } from './usecases/context';
import { KeyCache } from './usecases/key-cache';
import { TransportSecrets } from './usecases/account-secrets';
import { RedisWebhookTestMemory } from './adapters/webhook-test-memory';
import { DELIVERIES_OUTBOX } from './usecases/delivery-events';
import { ACCOUNTS_OUTBOX } from './usecases/platform-accounts';
import { Dispatcher } from './usecases/dispatcher';
import { adminTokenSource, CourierSimulator } from './simulator';
import { RateLimits, SIMULATOR_PASS_HEADER } from './usecases/rate-limits';

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
  outboxCollections: [DELIVERIES_OUTBOX, ACCOUNTS_OUTBOX],
  setup(context) {
    const { config } = context;
    const metrics = providerMetrics(context.metrics);
    // The courier simulator's calls pass this process's own rate limits with a random pass of its own.
    const simulatorPass = config.simulatorEnabled ? randomBytes(32).toString('base64url') : undefined;
    const rateLimits = new RateLimits(
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
      (scope) => metrics.rateLimited(scope),
      simulatorPass,
    );
    const ctx: ProviderContext = {
      store: providerStore(context.db),
      box: new SecretBox(config.secretKey),
      keyCache: new KeyCache(),
      rateLimits,
      keyHashSecret: config.keyHashSecret,
      allowLoopbackHttpUrls: config.allowLoopbackHttpUrls,
      transportKey: config.webhookSecretTransportKey,
      transportSecrets: new TransportSecrets(),
      outbox: context.outbox,
      webhookTests: new RedisWebhookTestMemory(context.redis, config.redisKeyPrefix, context.logger),
      // The webhook test's one attempt: the webhook sender's limits (3 s to connect, 10 s for the
      // answer), inside the test's own deadline of 10 s for the whole call (usecases/webhook-test.ts).
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
    registerRoutes(context, ctx);
    const dispatchSteps = new Counter({
      name: 'provider_dispatch_steps_total',
      help: 'Dispatch decisions by what they did: offered, waiting, failed (no driver took it), done, raced.',
      labelNames: ['step'],
      registers: [context.metrics],
    });
    const dispatcher = new Dispatcher(ctx, context.logger, undefined, (step) => dispatchSteps.inc({ step }));
    dispatcher.start();
    // Local setups, tests and the demo: simulated drivers, clients of this very courier API over
    // HTTP (they start calling once /healthz answers). One process per deployment runs it.
    const simulator = config.simulatorEnabled
      ? new CourierSimulator({
          baseUrl: `http://${loopbackIfAny(config.host)}:${config.port}`,
          adminToken: adminTokenSource(config.adminTokenSecret),
          headers: simulatorPass ? { [SIMULATOR_PASS_HEADER]: simulatorPass } : {},
          listAccounts: () => ctx.store.accounts.listSimulated(),
          logger: context.logger,
        })
      : undefined;
    simulator?.start();
    return {
      consumers: consumers(context),
      stopWork: async () => {
        await simulator?.stop();
        await dispatcher.stop();
      },
    };
  },
};
