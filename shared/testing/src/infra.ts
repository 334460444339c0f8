/**
 * Which infrastructure the integration tests run on, and what the containers would be. Pure: it
 * reads the environment it is given and starts nothing (containers.ts starts what this describes).
 *
 * - `native` (the default, and the only one CI runs): the local stack of scripts/stack/, whose
 *   addresses `npm run stack:up` writes to `.stack/stack.env`.
 * - `testcontainers` (`TEST_INFRA=testcontainers`, where a Docker engine exists): `npm test`
 *   starts Kafka, Apicurio Registry, MongoDB 7 and Redis as containers and hands their addresses
 *   to the tests in the environment.
 */

export const TEST_INFRA_VARIABLE = 'TEST_INFRA';

export const TEST_INFRAS = ['native', 'testcontainers'] as const;
export type TestInfra = (typeof TEST_INFRAS)[number];

/**
 * The four addresses every service and integration test needs (the platform settings), and the
 * credentials and TLS settings of a secured stack beside them (STACK_SECURITY_SETTINGS).
 */
export interface StackAddresses {
  KAFKA_BROKERS: string;
  SCHEMA_REGISTRY_URL: string;
  MONGO_URL: string;
  REDIS_URL: string;
  [setting: string]: string | undefined;
}

/** The settings a secured stack adds to the addresses (scripts/stack/stack.sh writes them to stack.env). */
export const STACK_SECURITY_SETTINGS = [
  'KAFKA_SECURITY_PROTOCOL',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SSL_CA_FILE',
  'SCHEMA_REGISTRY_USERNAME',
  'SCHEMA_REGISTRY_PASSWORD',
  'REDIS_USERNAME',
  'REDIS_PASSWORD',
] as const;

/** `TEST_INFRA`: unset or empty is `native`; anything but the two names is refused. */
export function testInfra(env: NodeJS.ProcessEnv = process.env): TestInfra {
  const value = env[TEST_INFRA_VARIABLE]?.trim() ?? '';
  if (value === '') return 'native';
  const known = TEST_INFRAS.find((name) => name === value);
  if (known) return known;
  throw new Error(
    `${TEST_INFRA_VARIABLE}=${JSON.stringify(value.slice(0, 40))} is not a test infrastructure: use "native" ` +
      '(the default: the local stack of scripts/stack/) or "testcontainers" (Kafka, the schema registry, ' +
      'MongoDB 7 and Redis in containers; needs a Docker engine)',
  );
}

/** One container of the testcontainers infrastructure. */
export interface ContainerSpec {
  /** The stack component it replaces (`stack.sh status --json` names). */
  component: 'kafka' | 'schemaRegistry' | 'mongodb' | 'redis';
  /** Pinned image, version and all. */
  image: string;
  /** The port clients use, inside the container. */
  port: number;
  /**
   * Published on the same host port (Kafka: the broker tells clients the address to use, which
   * must be known before it starts); otherwise Docker picks a free one.
   */
  fixedHostPort: boolean;
  env: Record<string, string>;
  /** Ready when this line appears in its log, or when this path answers 200 on `port`. */
  readyWhen: { log: RegExp } | { httpGet: string };
}

/**
 * Pinned images. Kafka and Apicurio are the versions the native stack runs (scripts/stack/kafka.sh,
 * registry.sh; infra.test.ts checks it); MongoDB is the server deployments run (the local engine
 * speaks its wire protocol); Redis the 7 line, as deployed.
 */
export const CONTAINER_IMAGES = {
  kafka: 'apache/kafka:4.4.0',
  schemaRegistry: 'apicurio/apicurio-registry:3.0.9',
  mongodb: 'mongo:7.0.16',
  redis: 'redis:7.4.2',
} as const;

/** Ports inside the containers. The broker's own listeners stay off the client's port. */
const INNER = { broker: 9092, controller: 9093, registry: 8080, mongodb: 27017, redis: 6379 } as const;

/**
 * The containers for a test run. `dockerHost` is where the engine publishes ports (testcontainers
 * says: `localhost` for a local engine); `kafkaPort` a free port there, on which Kafka listens for
 * clients inside the container too, and which it advertises, so clients outside reach it.
 */
export function containerPlan({ dockerHost, kafkaPort }: { dockerHost: string; kafkaPort: number }): ContainerSpec[] {
  if (!Number.isInteger(kafkaPort) || kafkaPort < 1024 || kafkaPort > 65535)
    throw new Error(`the Kafka client port must be an integer from 1024 to 65535, not ${kafkaPort}`);
  if (kafkaPort === INNER.broker || kafkaPort === INNER.controller)
    throw new Error(`the Kafka client port must not be ${INNER.broker} or ${INNER.controller} (the broker's own)`);
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(dockerHost)) throw new Error(`not a host name or address: ${dockerHost}`);
  return [
    kafkaContainer(dockerHost, kafkaPort),
    registryContainer(),
    plainContainer('mongodb', INNER.mongodb, /Waiting for connections/),
    plainContainer('redis', INNER.redis, /Ready to accept connections/),
  ];
}

/** Kafka, listening for clients on `kafkaPort` and advertising it on `dockerHost`. */
function kafkaContainer(dockerHost: string, kafkaPort: number): ContainerSpec {
  return {
    component: 'kafka',
    image: CONTAINER_IMAGES.kafka,
    port: kafkaPort,
    fixedHostPort: true,
    // The native stack's broker settings (scripts/stack/kafka.sh): one combined broker and
    // controller, no topic auto-creation (the services create theirs), 3 partitions by default.
    env: {
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_CONTROLLER_QUORUM_VOTERS: `1@localhost:${INNER.controller}`,
      KAFKA_LISTENERS: `CLIENT://:${kafkaPort},BROKER://:${INNER.broker},CONTROLLER://:${INNER.controller}`,
      KAFKA_ADVERTISED_LISTENERS: `CLIENT://${dockerHost}:${kafkaPort},BROKER://localhost:${INNER.broker}`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CLIENT:PLAINTEXT,BROKER:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      CLUSTER_ID: 'qKmh95wTjURoFN2lYN8LbQ', // any 16 bytes, base64url (one run, one cluster)
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      KAFKA_NUM_PARTITIONS: '3',
      KAFKA_DEFAULT_REPLICATION_FACTOR: '1',
      KAFKA_MIN_INSYNC_REPLICAS: '1',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '10',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    },
    readyWhen: { log: /Kafka Server started/ },
  };
}

/** The schema registry (Apicurio). */
function registryContainer(): ContainerSpec {
  return {
    component: 'schemaRegistry',
    image: CONTAINER_IMAGES.schemaRegistry,
    port: INNER.registry,
    fixedHostPort: false,
    // As scripts/stack/registry.sh, in memory (a test run's schemas only): ids are content ids,
    // deletions allowed.
    env: {
      APICURIO_STORAGE_KIND: 'sql',
      APICURIO_STORAGE_SQL_KIND: 'h2',
      APICURIO_CCOMPAT_LEGACY_ID_MODE_ENABLED: 'false',
      APICURIO_REST_DELETION_GROUP_ENABLED: 'true',
      APICURIO_REST_DELETION_ARTIFACT_ENABLED: 'true',
      APICURIO_REST_DELETION_ARTIFACT_VERSION_ENABLED: 'true',
    },
    readyWhen: { httpGet: '/apis/ccompat/v7/subjects' },
  };
}

/** A container that needs no settings: its image, its port, the log line that says it is ready. */
function plainContainer(component: 'mongodb' | 'redis', port: number, ready: RegExp): ContainerSpec {
  return {
    component,
    image: CONTAINER_IMAGES[component],
    port,
    fixedHostPort: false,
    env: {},
    readyWhen: { log: ready },
  };
}

/** Where each started container is reached from the tests (host and published port). */
export type ContainerAddresses = Record<ContainerSpec['component'], { host: string; port: number }>;

/** The environment the tests and the service processes they start get (see stackEnv). */
export function stackAddressesOf(addresses: ContainerAddresses): StackAddresses {
  const at = (component: ContainerSpec['component']) => `${addresses[component].host}:${addresses[component].port}`;
  return {
    KAFKA_BROKERS: at('kafka'),
    SCHEMA_REGISTRY_URL: `http://${at('schemaRegistry')}/apis/ccompat/v7`,
    MONGO_URL: `mongodb://${at('mongodb')}/`,
    REDIS_URL: `redis://${at('redis')}`,
  };
}

/**
 * What runs only on the native stack, and why. With TEST_INFRA=testcontainers `npm test` leaves
 * the projects out and says so; the single tests skip themselves (`testInfra() === 'native'`).
 */
export const NATIVE_ONLY = {
  /** The jest project that stops and restarts stack components with scripts/stack/stack.sh. */
  projects: { disruptive: 'stops and restarts stack components with scripts/stack/stack.sh' },
  /** Single tests, matched against the path from the repository root. */
  tests: {
    'test/services/start-and-status.int.test.ts': 'runs `npm start`, which brings the native stack up',
  },
} as const;
