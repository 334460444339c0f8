import { TOPICS } from '@marketplace/contracts';
import type { ServiceDefinition } from '@marketplace/runtime';
import { privateKeyFrom } from '@marketplace/identity';
import { ApiKeyCache } from './adapters/api-key-cache';
import { RateLimiter, RedisLock } from '@marketplace/redis';
import { SecretBox } from '@marketplace/identity';
import { InstallationsRepository } from './adapters/store/installations-repository';
import { gatewayIndexes, gatewayRepositories } from './adapters/store/repositories';
import { UpstreamClient } from './adapters/upstream';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import { partnerEdge } from './http/partner/edge';
import type { GatewayContext } from './usecases/context';
import { pruneExpired } from './usecases/idempotent-request';
import { gatewayMetrics } from './adapters/gateway-metrics';

const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Gateway and auth: what it owns, the topics it uses and its indexes, in one place. */
export const gatewayAuthService: ServiceDefinition<typeof settings> = {
  name: 'gateway-auth',
  defaultPort: 4101,
  settings,
  topics: [TOPICS.installations],
  indexes: gatewayIndexes,
  outboxCollections: [InstallationsRepository.storage.collection],
  setup(context) {
    const { config, redis, db, logger } = context;
    const gateway: GatewayContext = {
      store: gatewayRepositories(db),
      box: new SecretBox(config.encryptionKey),
      webhookSecretTransportKey: config.webhookSecretTransportKey,
      outbox: context.outbox,
      keyCache: new ApiKeyCache(redis, config.redisKeyPrefix),
      locks: new RedisLock(redis, config.redisKeyPrefix),
      apiKeyHashSecret: config.apiKeyHashSecret,
      tokenSecret: config.tokenSecret,
      publicBaseUrl: config.publicBaseUrl,
      allowLoopbackHttpUrls: config.allowLoopbackHttpUrls,
      oauthStateTtlSeconds: config.oauthStateTtlSeconds,
      oauthTimeoutMs: config.oauthTimeoutMs,
      metrics: gatewayMetrics(context.metrics),
      logger,
      now: () => new Date(),
    };
    const client = new UpstreamClient(config.upstreamTimeoutMs);
    const limiter = new RateLimiter(redis, config.redisKeyPrefix);
    context.useBeforeBody(
      partnerEdge(gateway, limiter, {
        perIp: config.rateLimitPerIp,
        perInstallation: config.rateLimitPerInstallation,
        windowSeconds: config.rateLimitWindowSeconds,
      }),
    );
    registerRoutes(context, gateway, {
      upstreams: {
        catalog: config.catalogUrl,
        ordering: config.orderingUrl,
        delivery: config.deliveryUrl,
        webhooks: config.webhooksUrl,
      },
      client,
      identityKey: privateKeyFrom(config.identityPrivateKey),
      idempotency: {
        retentionHours: config.idempotencyRetentionHours,
        waitMs: config.idempotencyWaitMs,
        lockTtlMs: config.upstreamTimeoutMs + 5_000,
      },
    });
    const pruning = setInterval(
      () => pruneExpired(gateway).catch((error) => logger.warn({ err: error }, 'pruning expired records failed')),
      PRUNE_INTERVAL_MS,
    );
    pruning.unref();
    return {
      consumers: consumers(context),
      onStop: async () => {
        clearInterval(pruning);
        client.close();
      },
    };
  },
};
