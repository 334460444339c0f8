import type { Server } from 'node:http';
import type { Db } from 'mongodb';
import type { Redis } from 'ioredis';
import { ConfigError, loadConfig, type Setting } from '@marketplace/config';
import {
  HoldWatch,
  loadTopicCatalog,
  type EventConsumer,
  type EventPublisher,
  type PlatformTopics,
  type TopicCatalog,
  type TopicMap,
  type TopicOf,
} from '@marketplace/events';
import { Counter, Gauge, type Registry } from 'prom-client';
import {
  createHttpApp,
  createMetrics,
  withTimeout,
  type ErrorFormat,
  type HttpApp,
  type Metrics,
  type RouteTable,
} from '@marketplace/http';
import { createLogger, type Logger } from '@marketplace/logging';
import { OutboxRelay } from '@marketplace/outbox';
import { pruneProcessedEvents, type IndexPlan } from '@marketplace/store';
import { activeTracing } from '@marketplace/tracing';
import { consumerLagMetrics, kafkaLagSource, type ConsumerLag } from './consumer-lag';
import { connectDependencies, type ConnectOptions, type ConsumerSpec, type Dependencies } from './dependencies';
import { trackInFlight, type InFlight } from './in-flight';
import { platformConfigProblems, platformSettings, type PlatformConfig } from './platform-config';

type Values<S> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** What a service's `setup` receives: its configuration and live connections (M: what its topics carry). */
export interface ServiceContext<S, M extends TopicMap = PlatformTopics> {
  config: PlatformConfig & Values<S>;
  logger: Logger;
  db: Db;
  redis: Redis;
  publisher: EventPublisher<M>;
  outbox: OutboxRelay;
  catalog: TopicCatalog;
  /**
   * The service's routes, each declared with its audience, and the check of each audience it
   * serves (`routes.guard`): a route whose audience has no check stops the start.
   */
  routes: RouteTable;
  /** The process's Prometheus registry (served at /metrics): a service adds its own metrics here. */
  metrics: Registry;
  /** Where the service's own consumers (beyond the shared loop) report what they hold back. */
  holds: HoldWatch;
  /** Where the service's own consumers (beyond the shared loop) add their group to the lag metric. */
  consumerLag: Pick<ConsumerLag, 'watch'>;
}

/** What `setup` hands back: the Kafka consumers to run and anything to stop on shutdown. */
export interface ServiceParts<M extends TopicMap = PlatformTopics> {
  consumers?: ConsumerSpec<M>[];
  /**
   * Stops the service's own background work (a queue, a loop) from starting anything new and waits
   * for what is under way. Runs as the stop begins, alongside the consumers' stop and the HTTP
   * drain, so that nothing new starts while the process is on its way out.
   */
  stopWork?: () => Promise<void>;
  /** Releases what the service holds (clients, timers), after HTTP and the consumers stopped. */
  onStop?: () => Promise<void>;
}

/**
 * A service: S its own settings, M what its topics carry (the platform's topics, from
 * schemas/topics.json, unless `SCHEMAS_DIR` points elsewhere, as in the runtime's own test).
 */
export interface ServiceDefinition<S extends Record<string, Setting<unknown>>, M extends TopicMap = PlatformTopics> {
  name: string;
  defaultPort: number;
  /** Service-specific settings, read and validated with the platform ones. */
  settings?: S;
  errorFormat?: ErrorFormat;
  /** Topics the service publishes or consumes: created at start, schemas registered. */
  topics?: readonly TopicOf<M>[];
  indexes?: IndexPlan;
  /** Collections whose documents carry an outbox (see @marketplace/outbox). */
  outboxCollections?: string[];
  setup(context: ServiceContext<S, M>): Promise<ServiceParts<M>> | ServiceParts<M>;
}

export interface RunningService {
  server: Server;
  url: string;
  shutdownTimeoutMs: number;
  stop(): Promise<void>;
}

const HOUR = 3_600_000;

/** Reads configuration; on a bad value prints one line naming the variable and exits. */
export function readConfig<S extends Record<string, Setting<unknown>>, M extends TopicMap = PlatformTopics>(
  definition: ServiceDefinition<S, M>,
  env = process.env,
) {
  try {
    const config = loadConfig(
      { ...platformSettings(definition.name, definition.defaultPort), ...(definition.settings ?? ({} as S)) },
      env,
    ) as PlatformConfig & Values<S>;
    const problems = platformConfigProblems(config);
    if (problems.length > 0) throw new ConfigError(problems);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${definition.name}: ${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}

/** What the start reads and builds before connecting anything (stage 1). */
interface Prepared<S, M extends TopicMap> {
  config: ServiceContext<S, M>['config'];
  logger: Logger;
  catalog: TopicCatalog;
  outboxCollections: string[];
  metrics: Metrics;
  holds: HoldWatch;
  onOutcome: NonNullable<ConnectOptions<M>['onOutcome']>;
}

/** The live connections and the consumer lag metric that reads them (stage 2). */
interface Connected<M extends TopicMap> {
  deps: Dependencies<M>;
  consumerLag: ConsumerLag;
}

/** The HTTP app, not yet listening, and the outbox relay, not yet started (stage 3). */
interface Assembled {
  http: HttpApp;
  outbox: OutboxRelay;
}

/** The service set up and listening, its consumers running (stage 4). */
interface Serving<M extends TopicMap> {
  parts: ServiceParts<M>;
  consumers: EventConsumer<M>[];
  /** The consumers requests wait on (`servesRequests`): stopped after HTTP, not at once. */
  servingConsumers: ReadonlySet<EventConsumer<M>>;
  server: Server;
}

/** Stage 1: configuration (exits on a bad value), logger, topic catalog, metrics, the hold watch. */
function prepare<S extends Record<string, Setting<unknown>>, M extends TopicMap>(
  definition: ServiceDefinition<S, M>,
): Prepared<S, M> {
  const config = readConfig(definition);
  const logger = createLogger({ service: definition.name, level: config.logLevel });
  const catalog = loadTopicCatalog();
  const outboxCollections = definition.outboxCollections ?? [];
  const metrics = createMetrics(definition.name);
  const onOutcome = consumerOutcomes(metrics.registry);
  const holds = consumerHolds(logger, config.consumerHoldAlarmMs, metrics.registry);
  return { config, logger, catalog, outboxCollections, metrics, holds, onOutcome };
}

/** Counts what consumers do with each message, and the dead letters by error code. */
function consumerOutcomes(registry: Registry): NonNullable<ConnectOptions['onOutcome']> {
  const consumed = new Counter({
    name: 'events_consumed_total',
    help: 'Kafka messages taken by consumers, by topic, consumer group and outcome (handled, duplicate, dead_lettered).',
    labelNames: ['topic', 'group', 'outcome'],
    registers: [registry],
  });
  const deadLettered = new Counter({
    name: 'events_dead_lettered_total',
    help: 'Kafka messages a consumer gave up on and copied to the dead-letter topic (<topic>.dlt), by consumer group, topic and error code.',
    labelNames: ['group', 'topic', 'code'],
    registers: [registry],
  });
  return (outcome, topic, group, code) => {
    consumed.inc({ topic, group, outcome });
    if (outcome === 'dead_lettered') deadLettered.inc({ group, topic, code: code ?? 'unknown' });
  };
}

/** Stage 2: the connections (each waited for up to the start-up timeout), then the lag metric over Kafka. */
async function connect<S extends Record<string, Setting<unknown>>, M extends TopicMap>(
  definition: ServiceDefinition<S, M>,
  { config, logger, catalog, outboxCollections, metrics, holds, onOutcome }: Prepared<S, M>,
): Promise<Connected<M>> {
  const deps = await connectDependencies<M>({
    holds,
    onOutcome,
    // Called only once the dependencies are connected (consumers are created after): by then
    // consumerLag exists.
    onConsumerGroup: (group, topics) => consumerLag.watch(group, topics),
    service: definition.name,
    config,
    catalog,
    logger,
    topics: definition.topics ?? [],
    indexes: mergeIndexPlans(definition.indexes ?? {}, OutboxRelay.indexes(outboxCollections)),
  });
  const consumerLag = consumerLagMetrics(metrics.registry, kafkaLagSource(deps.kafka, logger));
  return { deps, consumerLag };
}

/** Stage 3: the HTTP app (its readiness over the connections and the consumers) and the outbox relay. */
function assemble<S extends Record<string, Setting<unknown>>, M extends TopicMap>(
  definition: ServiceDefinition<S, M>,
  { config, logger, outboxCollections, metrics, holds }: Prepared<S, M>,
  { deps }: Connected<M>,
): Assembled {
  const readinessChecks = [...deps.readinessChecks, consumersCheck(holds)];
  const http = createHttpApp({
    service: definition.name,
    logger,
    metrics,
    trustProxy: config.trustProxy,
    headersTimeoutMs: config.httpHeadersTimeoutMs,
    requestTimeoutMs: config.httpRequestTimeoutMs,
    readinessChecks,
    errorFormat: definition.errorFormat,
  });
  const outbox = new OutboxRelay({
    db: deps.mongo.db,
    publisher: deps.publisher,
    collections: outboxCollections,
    logger,
  });
  return { http, outbox };
}

/**
 * Stage 4: the service's own setup, its consumers started, then HTTP listening. A failure stops
 * the consumers already started and closes the connections.
 */
async function serve<S extends Record<string, Setting<unknown>>, M extends TopicMap>(
  definition: ServiceDefinition<S, M>,
  { config, logger, catalog, metrics, holds }: Prepared<S, M>,
  { deps, consumerLag }: Connected<M>,
  { http, outbox }: Assembled,
): Promise<Serving<M>> {
  const consumers: EventConsumer<M>[] = [];
  const servingConsumers = new Set<EventConsumer<M>>();
  try {
    const parts = await definition.setup({
      config,
      logger,
      db: deps.mongo.db,
      redis: deps.redis,
      publisher: deps.publisher,
      outbox,
      catalog,
      routes: http.routes,
      metrics: metrics.registry,
      holds,
      consumerLag,
    });
    for (const spec of parts.consumers ?? []) {
      const consumer = deps.createConsumer(spec);
      consumers.push(consumer);
      if (spec.servesRequests) servingConsumers.add(consumer);
    }
    // Every group joins at once: a join after a crash waits for the dead member's session to end
    // (and, while another instance rebalances, for that too). One group after the other, the
    // webhook sender (four groups), killed while a second instance joined, was ready 10.4 s after
    // the kill in the fault proof (6.5 s in another run); all at once, 7.2 s.
    const started = await Promise.allSettled(consumers.map((consumer) => consumer.start()));
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    const server = await http.listen(config.port, config.host);
    return { parts, consumers, servingConsumers, server };
  } catch (error) {
    for (const consumer of consumers) await consumer.stop().catch(() => undefined);
    await deps.close();
    throw error;
  }
}

/** Stage 5: the outbox relay (if the service has an outbox) and the hourly pruning of processed event ids. */
function startBackground<S, M extends TopicMap>(
  { config, logger, outboxCollections }: Prepared<S, M>,
  { deps }: Connected<M>,
  { outbox }: Assembled,
): { stopPruning: () => void } {
  if (outboxCollections.length > 0) outbox.start();
  const prune = () =>
    pruneProcessedEvents(deps.mongo.db, new Date(Date.now() - config.processedEventsRetentionHours * HOUR)).catch(
      (error) => logger.warn({ err: error }, 'pruning processed event ids failed'),
    );
  const firstPrune = setTimeout(prune, 60_000); // soon after start, then hourly
  const pruning = setInterval(prune, HOUR);
  firstPrune.unref();
  pruning.unref();
  return {
    stopPruning: () => {
      clearTimeout(firstPrune);
      clearInterval(pruning);
    },
  };
}

/**
 * Starts a service: configuration, logger, connections (waiting for each dependency up to the
 * start-up timeout), topics, schemas and indexes, HTTP, consumers and the outbox relay. SIGTERM and
 * SIGINT stop it gracefully: readiness turns false, the HTTP server drains, consumers finish the
 * message in hand, then connections close. Exit code 0 on a clean stop.
 */
export async function startService<S extends Record<string, Setting<unknown>>, M extends TopicMap = PlatformTopics>(
  definition: ServiceDefinition<S, M>,
): Promise<RunningService> {
  const prepared = prepare(definition);
  const connected = await connect(definition, prepared);
  const assembled = assemble(definition, prepared, connected);
  const serving = await serve(definition, prepared, connected, assembled);
  const { stopPruning } = startBackground(prepared, connected, assembled);
  const { config, logger } = prepared;
  const url = `http://${config.host}:${config.port}`;
  logger.info({ url }, `${definition.name} ready`);

  const inFlight = trackInFlight(serving.server);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= stopSequence({ ...prepared, ...connected, ...assembled, ...serving, inFlight, stopPruning }));
  return { server: serving.server, url, shutdownTimeoutMs: config.shutdownTimeoutMs, stop };
}

/** Everything the stop sequence stops, from every stage of the start. */
type Running<S, M extends TopicMap> = Prepared<S, M> &
  Connected<M> &
  Assembled &
  Serving<M> & { inFlight: InFlight; stopPruning: () => void };

/** How long each part of the stop took, logged with `stopped`: a slow stop names its cause. */
function phaseTimer() {
  const phasesMs: Record<string, number> = {};
  let phaseStart = Date.now();
  const phase = (name: string) => {
    phasesMs[name] = Date.now() - phaseStart;
    phaseStart = Date.now();
  };
  return { phasesMs, phase };
}

/**
 * The stop, in its phases: drain (HTTP still answering, with `Connection: close`), http (in-flight
 * requests, within their bound), work (consumers and background work), outbox, connections.
 */
async function stopSequence<S, M extends TopicMap>(running: Running<S, M>): Promise<void> {
  const { logger, http, inFlight, consumers, servingConsumers, parts, outbox, consumerLag, deps, holds } = running;
  logger.info('stopping');
  const { phasesMs, phase } = phaseTimer();
  running.stopPruning();
  http.stopAccepting();
  inFlight.closeAfterAnswers();
  const stopConsumer = (consumer: EventConsumer<M>) =>
    consumer.stop().catch((error) => logger.warn({ err: error }, 'consumer stop failed'));
  // Consumers and background work stop taking new work at once (what is in hand finishes):
  // a message or a due retry must not start while the process is on its way out. Those that
  // requests wait on keep going until the last request is answered.
  const workStopped = Promise.all([
    ...consumers.filter((consumer) => !servingConsumers.has(consumer)).map(stopConsumer),
    parts.stopWork?.().catch((error) => logger.warn({ err: error }, 'background work stop failed')),
  ]);
  const drainMs = await drainHttp(running);
  phase('drain');
  await closeHttp(running, drainMs);
  phase('http');
  await Promise.all([workStopped, ...[...servingConsumers].map(stopConsumer)]);
  phase('work');
  await outbox.stop();
  phase('outbox');
  await parts.onStop?.();
  await consumerLag.close();
  await deps.close();
  holds.stop();
  await activeTracing()?.shutdown();
  phase('connections');
  logger.info({ phasesMs }, 'stopped');
}

/**
 * Still listening for a moment, answering with `Connection: close`: requests already on their way
 * (a connection just opened, a request not yet read) are served, not reset, and kept-alive clients
 * move off. Then no new connection, and idle ones are closed. Returns how long it waited.
 */
async function drainHttp<S, M extends TopicMap>({ config }: Running<S, M>): Promise<number> {
  const drainMs = Math.min(config.shutdownDrainMs, config.shutdownTimeoutMs / 2);
  await new Promise((resolve) => setTimeout(resolve, drainMs));
  return drainMs;
}

/** Closes the HTTP server, waiting for the requests in flight up to their bound, then cutting them off. */
async function closeHttp<S, M extends TopicMap>(
  { config, logger, server, inFlight }: Running<S, M>,
  drainMs: number,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection whose request finishes after close() stays open and would hold the
  // stop until the timeout: close each one as soon as it is idle. So also a connection opened
  // that has sent no request (Node's closeIdleConnections keeps those until the headers timeout).
  inFlight.closeIdle();
  const closingIdle = setInterval(() => inFlight.closeIdle(), 100);
  // Within SHUTDOWN_TIMEOUT_MS, less the drain, with 2 s left for the rest of the stop.
  const httpBoundMs = Math.max(1000, config.shutdownTimeoutMs - 2000 - drainMs);
  await withTimeout(closed, httpBoundMs, 'in-flight HTTP requests')
    .catch(() => {
      const requests = inFlight.list();
      logger.warn(
        { boundMs: httpBoundMs, count: requests.length, oldest: requests.slice(0, 20) },
        'requests still in flight at the stop bound; cut off',
      );
      server.closeAllConnections();
    })
    .finally(() => clearInterval(closingIdle));
}

/**
 * The process's watch over what its consumers hold back, with its metrics: alarms counted by group,
 * topic and cause, and the longest current hold per group.
 */
function consumerHolds(logger: Logger, alarmAfterMs: number, registry: Registry): HoldWatch {
  const alarms = new Counter({
    name: 'consumer_hold_alarms_total',
    help: `Consumer holds (messages retried in place, partitions waiting) that lasted longer than CONSUMER_HOLD_ALARM_MS, by group, topic and cause.`,
    labelNames: ['group', 'topic', 'code'],
    registers: [registry],
  });
  const holds = new HoldWatch({
    alarmAfterMs,
    logger,
    onAlarm: (hold) => alarms.inc({ group: hold.group, topic: hold.topic, code: hold.code }),
  });
  new Gauge({
    name: 'consumer_hold_longest_seconds',
    help: 'The longest current hold of each consumer group, in seconds (0 or absent: nothing held).',
    labelNames: ['group'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [group, seconds] of holds.longestByGroup()) this.set({ group }, seconds);
    },
  });
  return holds;
}

/** `consumers` in /readyz: degraded (the service still serves) while a hold is past the alarm. */
function consumersCheck(holds: HoldWatch) {
  return {
    name: 'consumers',
    degradesOnly: true,
    check: async () => {
      const overdue = holds.overdue();
      if (overdue.length > 0) throw new Error(overdue.map((hold) => HoldWatch.describe(hold)).join('; '));
    },
  };
}

/**
 * A service's own indexes plus the outbox's, per collection. (A plain object spread let the outbox
 * index replace every other index of a collection that has both, unique ones included.)
 */
export function mergeIndexPlans(...plans: IndexPlan[]): IndexPlan {
  const merged: IndexPlan = {};
  for (const plan of plans)
    for (const [collection, indexes] of Object.entries(plan))
      merged[collection] = [...(merged[collection] ?? []), ...indexes];
  return merged;
}
