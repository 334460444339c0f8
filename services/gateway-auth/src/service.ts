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
import { partnerGuard } from './http/partner/edge';
import { requireBearer } from './http/bearer-auth';
import { auditMutations } from './http/audit';
import { processorHeadersPresent } from './http/payment-processor-routes';
import { RevokedTokenIds } from './usecases/token-revocations';
import { ipLimitFor, perCallerLimit } from './http/surface-limits';
import type { GatewayContext } from './usecases/context';
import { pruneExpired } from './usecases/idempotent-request';
import { auditMetrics, gatewayMetrics } from './adapters/gateway-metrics';
import { oauthHttpClient } from './adapters/oauth2-client';

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
    const oauthHttp = oauthHttpClient({
      timeoutMs: config.oauthTimeoutMs,
      allowLoopbackHttp: config.allowLoopbackHttpUrls,
    });
    const store = gatewayRepositories(db);
    // Revoked tenant tokens: read every TOKEN_REVOCATION_REFRESH_SECONDS, checked by the tenant guard.
    const revokedTokens = new RevokedTokenIds(
      (now) => store.tenantTokens.listRevokedIdsAcrossTenants(now),
      config.tokenRevocationRefreshSeconds * 1000,
      { onRefreshFailed: (error) => logger.warn({ err: error }, 'reading the revoked token ids failed') },
    );
    const gateway: GatewayContext = {
      store,
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
      oauthHttp,
      metrics: gatewayMetrics(context.metrics),
      auditMetrics: auditMetrics(context.metrics),
      revokedTokens,
      auditRetentionDays: config.auditRetentionDays,
      logger,
      now: () => new Date(),
    };
    const client = new UpstreamClient(config.upstreamTimeoutMs);
    const limiter = new RateLimiter(redis, config.redisKeyPrefix);
    const limits = {
      perIp: config.rateLimitPerIp,
      perInstallation: config.rateLimitPerInstallation,
      windowSeconds: config.rateLimitWindowSeconds,
    };
    const tenantLimits = {
      perIp: config.tenantRateLimitPerIp,
      perCaller: config.tenantRateLimitPerTenant,
      windowSeconds: config.rateLimitWindowSeconds,
    };
    const adminLimits = {
      perIp: config.adminRateLimitPerIp,
      perCaller: config.adminRateLimitPerAdmin,
      windowSeconds: config.rateLimitWindowSeconds,
    };
    // The tenant and admin APIs: per-IP limit (before the token), the token, then the per-caller limit.
    context.routes
      .guard(
        'public',
        ipLimitFor('public', gateway, limiter, {
          perIp: config.publicRateLimitPerIp,
          windowSeconds: config.rateLimitWindowSeconds,
        }),
      )
      .guard('partner', partnerGuard(gateway, limiter, limits))
      // A payment processor: counted with the public pages per IP; its signature is checked by its route.
      .guard(
        'processor',
        ipLimitFor('public', gateway, limiter, {
          perIp: config.publicRateLimitPerIp,
          windowSeconds: config.rateLimitWindowSeconds,
        }),
        processorHeadersPresent,
      )
      .guard(
        'tenant',
        ipLimitFor('tenant', gateway, limiter, tenantLimits),
        requireBearer(config.tokenSecret, 'tenant', revokedTokens),
        perCallerLimit('tenant', gateway, limiter, tenantLimits),
        auditMutations(gateway),
      )
      .guard(
        'admin',
        ipLimitFor('admin', gateway, limiter, adminLimits),
        requireBearer(config.tokenSecret, 'admin'),
        perCallerLimit('admin', gateway, limiter, adminLimits),
        auditMutations(gateway),
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
    revokedTokens.start();
    return {
      consumers: consumers(context),
      onStop: async () => {
        clearInterval(pruning);
        revokedTokens.stop();
        client.close();
        oauthHttp.close();
      },
    };
  },
};
