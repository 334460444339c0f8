import { randomUUID } from 'node:crypto';
import { TOPICS } from '@marketplace/contracts';
import { AppError } from '@marketplace/errors';
import { CopyProgress, createKafka, waitForCopies, kafkaConnectionOf } from '@marketplace/events';
import { gatewayGuards, openOrderDropoff, publicKeyFrom } from '@marketplace/identity';
import { SafeHttpClient } from '@marketplace/http';
import type { ServiceDefinition } from '@marketplace/runtime';
import { DELIVERIES, deliveryIndexes, deliveryStore } from './adapters/store';
import { assignmentMetrics } from './adapters/assignment-metrics';
import { outboxDeliveryEvents } from './adapters/delivery-events';
import { RecentDeliveryCache } from './adapters/recent-deliveries';
import { settings } from './config';
import { consumers, COPY_CONSUMERS, type CopiesProgress } from './consumers';
import { envelopeErrors } from './http/callback-routes';
import { registerRoutes } from './http/routes';
import { certificateCheck } from './adapters/dispatch/certificate-check';
import { SealedConnectionSecrets } from './adapters/dispatch/connection-secrets';
import { dispatchMetrics, watchStateAges } from './adapters/dispatch/dispatch-metrics';
import { outboxPlatformEvents, PLATFORM_OUTBOXES } from './adapters/dispatch/dispatch-events';
import { HttpProviderApi } from './adapters/dispatch/provider-api';
import { ProviderDispatcher } from './runtime/provider-dispatcher';
import type { DispatchContext } from './usecases/context';
import type { DeliveryContext } from './usecases/context';

/** How often answers kept for Idempotency-Key repeats are removed once past their retention. */
const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Delivery assignment: what it owns, the topics it uses and its indexes, in one place. */
export const deliveryAssignmentService: ServiceDefinition<typeof settings> = {
  name: 'delivery-assignment',
  defaultPort: 4104,
  settings,
  topics: [
    TOPICS.deliveries,
    TOPICS.orders,
    TOPICS.installations,
    TOPICS.catalog,
    TOPICS.dispatchDecisions,
    TOPICS.providerConnections,
  ],
  indexes: deliveryIndexes,
  outboxCollections: [DELIVERIES, ...PLATFORM_OUTBOXES],
  async setup(context) {
    const { config } = context;
    // Partner and tenant routes answer only requests whose identity the gateway signed.
    const gateway = gatewayGuards(publicKeyFrom(config.identityPublicKey), 'delivery-assignment');
    context.routes
      .guard('partner', gateway.partner)
      .guard('tenant', gateway.tenant)
      .guard('admin', gateway.admin)
      // The providers' callback route answers in the provider contract's envelope.
      .guard('public', envelopeErrors);

    const { admin, progress, copiesCaughtUp } = await copyProgress(context);
    const dispatcher = new ProviderDispatcher(context.logger.child({ component: 'provider-dispatcher' }));
    const { dispatch, closeDispatch } = dispatchPorts(config, context, dispatcher);
    const ctx: DeliveryContext = {
      store: deliveryStore(context.db),
      events: outboxDeliveryEvents(context.outbox),
      recent: new RecentDeliveryCache(),
      copiesCaughtUp,
      partnerRequestRetentionMs: config.idempotencyRetentionHours * 3_600_000,
      metrics: assignmentMetrics(context.metrics),
      dispatch,
      logger: context.logger,
      now: () => new Date(),
      newId: randomUUID,
    };
    registerRoutes(context, ctx);
    const pruning = setInterval(() => {
      ctx.store.deliveries
        .deleteExpiredPartnerRequests(ctx.now())
        .catch((error: unknown) => context.logger.warn({ err: error }, 'pruning expired partner requests failed'));
    }, PRUNE_INTERVAL_MS);
    pruning.unref();
    dispatcher.start(ctx);
    const ages = watchStateAges(context.metrics, ctx.store.dispatches, context.logger);
    return {
      consumers: consumers(ctx, progress, config.copiesStart === 'earliest'),
      stopWork: () => dispatcher.stop(),
      onStop: async () => {
        clearInterval(pruning);
        ages.stop();
        closeDispatch();
        await admin.disconnect();
      },
    };
  },
};

type Context = Parameters<(typeof deliveryAssignmentService)['setup']>[0];
type Config = Context['config'];

/**
 * How far this service's copies (orders, installations, branches) have read their topics, read
 * from Kafka, and the wait an assignment makes for them (503 `delivery.copies_behind` past it).
 */
async function copyProgress(context: Context) {
  const { config } = context;
  const admin = createKafka({
    connection: kafkaConnectionOf(config),
    clientId: 'delivery-assignment-progress',
    logger: context.logger,
  }).admin();
  await admin.connect();
  const group = (name: string) => `${config.consumerGroupPrefix ?? 'delivery-assignment'}.${name}`;
  const progress: CopiesProgress = {
    orders: new CopyProgress(admin, group(COPY_CONSUMERS.orders), TOPICS.orders),
    installations: new CopyProgress(admin, group(COPY_CONSUMERS.installations), TOPICS.installations),
    catalog: new CopyProgress(admin, group(COPY_CONSUMERS.catalog), TOPICS.catalog),
  };
  const copies = (Object.keys(progress) as Array<keyof CopiesProgress>).map((name) => ({
    name,
    progress: progress[name],
  }));
  const copiesCaughtUp = async (time: Date): Promise<void> => {
    const behind = await waitForCopies(copies, time, { timeoutMs: config.copyWaitMs }).catch(
      (error: unknown) => `Kafka could not say (${error instanceof Error ? error.message : String(error)})`,
    );
    if (behind === undefined) return;
    context.logger.warn({ behind }, 'assignment refused: copies behind after the wait');
    throw new AppError(
      'unavailable',
      'delivery.copies_behind',
      'Orders, installations or branches published a moment ago are not read yet; try again shortly.',
      { retryAfterSeconds: 1 },
    );
  };
  return { admin, progress, copiesCaughtUp };
}

/**
 * The platform's side of the provider contract: the provider API over the safe HTTP client, the
 * sealed secrets, the certificate check, the drop-off opener, the metrics and the dispatcher.
 */
function dispatchPorts(
  config: Config,
  context: Context,
  dispatcher: ProviderDispatcher,
): { dispatch: DispatchContext; closeDispatch: () => void } {
  const callbackBaseUrl =
    config.platformCallbackBaseUrl ?? (config.allowLoopbackHttpUrls ? `http://127.0.0.1:${config.port}` : undefined);
  if (callbackBaseUrl === undefined)
    throw new Error('PLATFORM_CALLBACK_BASE_URL is required (the public address providers send callbacks to)');
  const secrets = new SealedConnectionSecrets(config.connectionSecretsKey);
  const http = new SafeHttpClient({
    connectTimeoutMs: 5_000,
    responseTimeoutMs: 15_000,
    maxResponseBytes: 5 * 1024 * 1024,
    allowLoopbackHttp: config.allowLoopbackHttpUrls,
  });
  const providers = new HttpProviderApi(http, (connection) => secrets.openApiKey(connection));
  const dispatch: DispatchContext = {
    providers,
    secrets,
    certificates: certificateCheck(config.conformanceTrustedKeys),
    openDropoff: (orderId, sealed) => openOrderDropoff(config.customerDataTransportKey, orderId, sealed),
    metrics: dispatchMetrics(context.metrics),
    work: dispatcher,
    events: outboxPlatformEvents(context.outbox),
    callbackBaseUrl,
    allowLoopbackHttp: config.allowLoopbackHttpUrls,
    quietMs: config.dispatchQuietSeconds * 1000,
  };
  return { dispatch, closeDispatch: () => providers.close() };
}
