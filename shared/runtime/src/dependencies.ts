import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { Redis } from 'ioredis';
import {
  EventConsumer,
  EventPublisher,
  EventSchemas,
  SchemaValidator,
  createKafka,
  ensureTopics,
  KafkaPing,
  type EventOf,
  type HoldWatch,
  type PlatformTopics,
  type TopicCatalog,
  type TopicMap,
  type TopicOf,
  kafkaConnectionOf,
  registryConnectionOf,
  checkKafkaTls,
  describeKafkaConnection,
} from '@marketplace/events';
import type { ReadinessCheck } from '@marketplace/http';
import type { Logger } from '@marketplace/logging';
import { connectRedis, redisConnectionOf } from '@marketplace/redis';
import {
  connectMongo,
  ensureIndexes,
  PROCESSED_EVENTS,
  PROCESSED_EVENTS_INDEXES,
  processedEvents,
  type IndexPlan,
  type MongoStore,
} from '@marketplace/store';
import { groupTimingsOf, type PlatformConfig } from './platform-config';
import { isStartupRace, refusalOf } from './startup-refusals';

/**
 * A consumer of the topics T (of the topic map M: the platform's topics by default). Declare one
 * with `defineConsumer`, which types the handler's event by the topics listed.
 */
export interface ConsumerSpec<M extends TopicMap = PlatformTopics, T extends TopicOf<M> = TopicOf<M>> {
  /** Appended to the service name to form the consumer group (`<service>.<name>`). */
  name: string;
  topics: readonly T[];
  /**
   * Handles an event of one of `topics`, told apart by `event.topic`. (Declared as a method, so
   * that a consumer of some topics is a `ConsumerSpec` of the whole map, as a service's list of
   * consumers is: the runtime gives each handler the events of its own topics only.)
   */
  handler(event: EventOf<M, T>): Promise<void>;
  /** Where a new consumer group starts: the topic's beginning (default) or new messages only. */
  fromBeginning?: boolean;
  /**
   * false for a handler that is idempotent by itself (an upsert by version, an insert under a
   * deterministic id): event ids are then not looked up and recorded, which saves two database
   * round trips per message, and every message, repeats included, reaches the handler.
   */
  dedupe?: boolean;
  /** Backoff between attempts of a retriable failure (default 200 ms doubling to 30 s). */
  retryBackoffMs?: { initial: number; max: number };
  /**
   * true for a consumer that requests wait on (a copy a request checks is caught up before it
   * answers): on SIGTERM it keeps consuming while HTTP drains and stops after the last request,
   * instead of at once, so that a request in flight at the stop is answered, not refused.
   */
  servesRequests?: boolean;
}

/**
 * A consumer of platform topics, its handler typed by the topics listed: with
 * `topics: [TOPICS.orders, TOPICS.installations]`, `event` is an order event or an installation
 * event, told apart by `event.topic`, each with its data type and event types.
 */
export function defineConsumer<const T extends TopicOf<PlatformTopics>>(
  spec: ConsumerSpec<PlatformTopics, T>,
): ConsumerSpec<PlatformTopics, T> {
  return spec;
}

/** Remembers nothing: for handlers that are idempotent by themselves. */
const NO_DEDUPE = { has: async () => false, add: async () => undefined };

/** Live connections of one service process. */
export interface Dependencies<M extends TopicMap = PlatformTopics> {
  mongo: MongoStore;
  redis: Redis;
  kafka: Kafka;
  schemas: EventSchemas;
  publisher: EventPublisher<M>;
  deadLetters: Producer;
  readinessChecks: ReadinessCheck[];
  createConsumer(spec: ConsumerSpec<M>): EventConsumer<M>;
  close(): Promise<void>;
}

export interface ConnectOptions<M extends TopicMap = PlatformTopics> {
  /** Counts consumer outcomes by topic and group (Prometheus); a dead letter's with its error code. */
  onOutcome?: (outcome: string, topic: string, group: string, code?: string) => void;
  /** Told each consumer group created and its topics (the consumer lag metric reads them). */
  onConsumerGroup?: (group: string, topics: readonly string[]) => void;
  service: string;
  config: PlatformConfig;
  /** The topics M describes (the platform's: `loadTopicCatalog()`). */
  catalog: TopicCatalog;
  logger: Logger;
  topics: readonly TopicOf<M>[];
  indexes: IndexPlan;
  /** Where consumers report the messages they hold back. */
  holds?: HoldWatch;
}

/**
 * Retries `attempt` until it succeeds or the start-up deadline passes, saying what it waits for;
 * a refusal (wrong credentials, an untrusted certificate: startup-refusals.ts) ends it at once.
 */
async function untilDeadline<T>(what: string, deadline: number, logger: Logger, attempt: () => Promise<T>): Promise<T> {
  for (let delay = 250; ; delay = Math.min(delay * 2, 4000)) {
    try {
      return await attempt();
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) throw new Error(`could not connect to ${what}: ${refusal}`);
      if (Date.now() + delay > deadline)
        throw new Error(`could not reach ${what} before the start-up timeout: ${(error as Error).message}`);
      // The races of every start (services creating the same topics and subjects at once, a group
      // coordinator still loading) at debug; anything else, such as a component not up, at warn.
      logger[isStartupRace(error) ? 'debug' : 'warn']({ err: error, retryInMs: delay }, `waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** How to close each connection opened so far, in the order opened (closed last first). */
type Opened = (() => Promise<unknown>)[];

/** What every start-up stage shares: the one deadline, the logger, the list of what to close. */
interface StartUp {
  deadline: number;
  logger: Logger;
  opened: Opened;
}

/** MongoDB (with the service's indexes and the processed-event ids') and Redis. */
async function connectStores({ deadline, logger, opened }: StartUp, config: PlatformConfig, indexes: IndexPlan) {
  const mongo = await untilDeadline('MongoDB', deadline, logger, () =>
    connectMongo({ url: config.mongoUrl, database: config.mongoDatabase, logger }),
  );
  opened.push(() => mongo.close());
  await untilDeadline('MongoDB indexes', deadline, logger, () =>
    ensureIndexes(mongo.db, { ...indexes, [PROCESSED_EVENTS]: PROCESSED_EVENTS_INDEXES }),
  );

  const redis = await untilDeadline('Redis', deadline, logger, () =>
    connectRedis({ connection: redisConnectionOf(config), logger }),
  );
  opened.push(() => redis.quit());
  return { mongo, redis };
}

/** Kafka with the service's topics, their schemas registered, the publisher and the dead-letter producer. */
async function connectKafka<M extends TopicMap>(
  { deadline, logger, opened }: StartUp,
  { service, config, catalog, topics }: Pick<ConnectOptions<M>, 'service' | 'config' | 'catalog' | 'topics'>,
) {
  const connection = kafkaConnectionOf(config);
  const kafka = createKafka({ connection, clientId: service, logger });
  await untilDeadline('Kafka (topics)', deadline, logger, async () => {
    await checkKafkaTls(connection); // an untrusted certificate ends the start at once (kafkajs would retry it)
    return ensureTopics(kafka, catalog, topics);
  });
  logger.info({ kafka: describeKafkaConnection(connection) }, 'connected to Kafka'); // brokers, protocol, user; never the password
  const schemas = new EventSchemas(registryConnectionOf(config), catalog);
  await untilDeadline('the schema registry', deadline, logger, () => schemas.register(topics));

  const validator = new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema]));
  const publisher = new EventPublisher<M>(kafka, catalog, schemas, validator, service);
  await untilDeadline('Kafka (producer)', deadline, logger, () => publisher.connect());
  opened.push(() => publisher.disconnect());
  const deadLetters = kafka.producer({
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await untilDeadline('Kafka (dead-letter producer)', deadline, logger, () => deadLetters.connect());
  opened.push(() => deadLetters.disconnect());
  return { kafka, schemas, validator, publisher, deadLetters };
}

type Stores = Awaited<ReturnType<typeof connectStores>>;
type KafkaParts<M extends TopicMap> = Awaited<ReturnType<typeof connectKafka<M>>>;

/** The /readyz checks of the connections (the Kafka ping holds a connection of its own). */
function connectionChecks(
  { mongo, redis }: Stores,
  { kafka, schemas }: Pick<KafkaParts<TopicMap>, 'kafka' | 'schemas'>,
  opened: Opened,
) {
  const kafkaPing = new KafkaPing(kafka);
  opened.push(() => kafkaPing.close());
  const readinessChecks: ReadinessCheck[] = [
    { name: 'mongodb', check: () => mongo.ping() },
    { name: 'redis', check: () => redis.ping() },
    { name: 'kafka', check: () => kafkaPing.ping() },
    { name: 'schemaRegistry', check: () => schemas.ping() },
  ];
  return readinessChecks;
}

/** Makes the consumer of a spec: its group named after the service, its processed ids in MongoDB. */
function consumerFactory<M extends TopicMap>(
  { mongo }: Stores,
  { kafka, schemas, validator, deadLetters }: KafkaParts<M>,
  { service, config, catalog, logger, onOutcome, onConsumerGroup, holds }: ConnectOptions<M>,
) {
  return (spec: ConsumerSpec<M>) => {
    const groupId = `${config.consumerGroupPrefix ?? service}.${spec.name}`;
    onConsumerGroup?.(groupId, spec.topics);
    return new EventConsumer<M>(
      kafka,
      catalog,
      schemas,
      validator,
      deadLetters,
      {
        groupId,
        topics: spec.topics,
        handler: (event) => spec.handler(event),
        fromBeginning: spec.fromBeginning,
        retryBackoffMs: spec.retryBackoffMs,
        processed: spec.dedupe === false ? NO_DEDUPE : processedEvents(mongo.db, groupId),
        onOutcome: (outcome, topic, code) => onOutcome?.(outcome, topic, groupId, code),
        holds,
        groupTimings: groupTimingsOf(config),
      },
      logger,
    );
  };
}

/**
 * Connects a service's dependencies in order (MongoDB and its indexes, Redis, Kafka topics, the
 * schema registry, the producers), each waited for up to the start-up timeout. A failure closes
 * what was already opened.
 */
export async function connectDependencies<M extends TopicMap = PlatformTopics>(
  options: ConnectOptions<M>,
): Promise<Dependencies<M>> {
  const { config, logger } = options;
  const startUp: StartUp = { deadline: Date.now() + config.startupTimeoutMs, logger, opened: [] };
  const close = async () => {
    for (const closeOne of startUp.opened.reverse())
      await closeOne().catch((error) => logger.warn({ err: error }, 'error while closing'));
  };
  try {
    const stores = await connectStores(startUp, config, options.indexes);
    const kafkaParts = await connectKafka<M>(startUp, options);
    const readinessChecks = connectionChecks(stores, kafkaParts, startUp.opened);
    const createConsumer = consumerFactory(stores, kafkaParts, options);
    const { mongo, redis } = stores;
    const { kafka, schemas, publisher, deadLetters } = kafkaParts;
    return { mongo, redis, kafka, schemas, publisher, deadLetters, readinessChecks, createConsumer, close };
  } catch (error) {
    await close();
    throw error;
  }
}
