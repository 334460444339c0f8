import { TOPICS } from '@marketplace/contracts';
import type { ServiceContext, ServiceDefinition } from '@marketplace/runtime';
import { privateKeyFrom } from '@marketplace/identity';
import { ApiKeyCache } from './adapters/api-key-cache';
import { RateLimiter, RedisLock } from '@marketplace/redis';
import { SecretBox } from '@marketplace/identity';
import { InstallationsRepository } from './adapters/store/installations-repository';
import { installationEvents } from './adapters/installation-events';
import { gatewayIndexes, gatewayRepositories } from './adapters/store/repositories';
import { UpstreamClient } from './adapters/upstream';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import { partnerGuard } from './http/partner/edge';
import { requireBearer } from './http/bearer-auth';
import { auditMutations } from './http/audit';
import { processorHeadersPresent } from './http/payment-processor-routes';
import { RevokedTokenIds } from './adapters/revoked-token-ids';
import { ipLimitFor, perCallerLimit } from './http/surface-limits';
import type { GatewayContext } from './usecases/context';
import { startPruning } from './runtime/pruning';
import { auditMetrics, gatewayMetrics } from './adapters/gateway-metrics';
import { oauthClient, oauthHttpClient, type OAuthHttp } from './adapters/oauth2-client';

type Setup = ServiceContext<typeof settings>;

/** Gateway and auth: what it owns, the topics it uses and its indexes, in one place. */
export const gatewayAuthService: ServiceDefinition<typeof settings> = {
  name: 'gateway-auth',
  defaultPort: 4101,
  settings,
  topics: [TOPICS.installations],
  indexes: gatewayIndexes,
  outboxCollections: [InstallationsRepository.storage.collection],
  setup(context) {
    const { config, logger } = context;
    const oauthHttp = oauthHttpClient({
      timeoutMs: config.oauthTimeoutMs,
      allowLoopbackHttp: config.allowLoopbackHttpUrls,
    });
    const { gateway, revokedTokens } = gatewayContext(context, oauthHttp);
    const client = new UpstreamClient(config.upstreamTimeoutMs);
    guardRoutes(context, gateway, revokedTokens);
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
    const stopPruning = startPruning(gateway, logger);
    revokedTokens.start();
    return {
      consumers: consumers(context),
      onStop: async () => {
        stopPruning();
        revokedTokens.stop();
        client.close();
        oauthHttp.close();
      },
    };
  },
};

/** The adapters wired into the use cases' context (and the revoked-token list the tenant guard reads too). */
function gatewayContext(
  context: Setup,
  oauthHttp: OAuthHttp,
): { gateway: GatewayContext; revokedTokens: RevokedTokenIds } {
  const { config, redis, db, logger } = context;
  const now = () => new Date();
  const store = gatewayRepositories(db);
  // Revoked tenant tokens: read every TOKEN_REVOCATION_REFRESH_SECONDS, checked by the tenant guard.
  const revokedTokens = new RevokedTokenIds(
    (at) => store.tenantTokens.listRevokedIdsAcrossTenants(at),
    config.tokenRevocationRefreshSeconds * 1000,
    { onRefreshFailed: (error) => logger.warn({ err: error }, 'reading the revoked token ids failed') },
  );
  const gateway: GatewayContext = {
    store,
    box: new SecretBox(config.encryptionKey),
    webhookSecretTransportKey: config.webhookSecretTransportKey,
    installationEvents: installationEvents(context.outbox),
    keyCache: new ApiKeyCache(redis, config.redisKeyPrefix),
    locks: new RedisLock(redis, config.redisKeyPrefix),
    apiKeyHashSecret: config.apiKeyHashSecret,
    tokenSecret: config.tokenSecret,
    publicBaseUrl: config.publicBaseUrl,
    allowLoopbackHttpUrls: config.allowLoopbackHttpUrls,
    oauthStateTtlSeconds: config.oauthStateTtlSeconds,
    oauth: oauthClient({ http: oauthHttp, timeoutMs: config.oauthTimeoutMs, now }),
    metrics: gatewayMetrics(context.metrics),
    auditMetrics: auditMetrics(context.metrics),
    revokedTokens,
    auditRetentionDays: config.auditRetentionDays,
    logger,
    now,
  };
  return { gateway, revokedTokens };
}

/**
 * The guards of each surface. The tenant and admin APIs: per-IP limit (before the token), the
 * token, then the per-caller limit, then the audit of mutations.
 */
function guardRoutes(context: Setup, gateway: GatewayContext, revokedTokens: RevokedTokenIds): void {
  const { config, redis } = context;
  const limiter = new RateLimiter(redis, config.redisKeyPrefix);
  const windowSeconds = config.rateLimitWindowSeconds;
  const limits = { perIp: config.rateLimitPerIp, perInstallation: config.rateLimitPerInstallation, windowSeconds };
  const tenantLimits = {
    perIp: config.tenantRateLimitPerIp,
    perCaller: config.tenantRateLimitPerTenant,
    windowSeconds,
  };
  const adminLimits = { perIp: config.adminRateLimitPerIp, perCaller: config.adminRateLimitPerAdmin, windowSeconds };
  const publicLimits = { perIp: config.publicRateLimitPerIp, windowSeconds };
  context.routes
    .guard('public', ipLimitFor('public', gateway, limiter, publicLimits))
    .guard('partner', partnerGuard(gateway, limiter, limits))
    // A payment processor: counted with the public pages per IP; its signature is checked by its route.
    .guard('processor', ipLimitFor('public', gateway, limiter, publicLimits), processorHeadersPresent)
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
}
