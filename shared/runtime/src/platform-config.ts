import { bool, int, loadConfig, oneOf, optionalStr, port, str, url, type Setting } from '@marketplace/config';
import {
  DEFAULT_GROUP_TIMINGS,
  groupTimingProblems,
  kafkaConnectionProblems,
  kafkaConnectionSettings,
  registryConnectionProblems,
  registryConnectionSettings,
  type GroupTimings,
} from '@marketplace/events';
import { redisConnectionProblems, redisConnectionSettings } from '@marketplace/redis';

const DATABASE_NAME = /^[A-Za-z0-9_]{1,60}$/;

/** `MONGO_DATABASE_PREFIX` (default `marketplace`) names every service's database at once:
 * `<prefix>_<service>`; `MONGO_DATABASE` names one service's database outright. */
function databasePrefix(): string {
  const prefix = process.env.MONGO_DATABASE_PREFIX?.trim() || 'marketplace';
  return DATABASE_NAME.test(prefix) ? prefix : 'invalid-MONGO_DATABASE_PREFIX';
}

/** Settings every service reads; a service adds its own beside them. */
export function platformSettings(service: string, defaultPort: number) {
  return {
    port: port('PORT', { default: defaultPort }),
    host: str('HOST', { default: '127.0.0.1' }),
    /** Kafka's brokers, TLS and SASL (shared/events connection.ts). */
    ...kafkaConnectionSettings(),
    /** The schema registry's URL and its credentials (shared/events registry-connection.ts). */
    ...registryConnectionSettings(),
    /**
     * Passed to the driver untouched: credentials, `tls=true`, `tlsCAFile`, `authSource` and the
     * rest go in the URL (or the whole URL in MONGO_URL_FILE, as a Secret). Never logged.
     */
    mongoUrl: url('MONGO_URL', { protocols: ['mongodb', 'mongodb+srv'] }),
    mongoDatabase: str('MONGO_DATABASE', {
      default: `${databasePrefix()}_${service.replace(/-/g, '_')}`,
      pattern: DATABASE_NAME,
    }),
    /** Redis: a URL, an ACL user, TLS, or Sentinel (shared/redis connection.ts). */
    ...redisConnectionSettings(),
    /** Behind a load balancer that sets X-Forwarded-For: take the client address from it. */
    trustProxy: bool('TRUST_PROXY', { default: false }),
    logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
      default: 'info',
    }),
    otlpEndpoint: optionalStr('OTEL_EXPORTER_OTLP_ENDPOINT'),
    /** Longest time a graceful stop may take before the process exits anyway. */
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', { default: 15_000, min: 100, max: 300_000 }),
    /** On SIGTERM, how long HTTP keeps answering (with `Connection: close`) before it stops listening. */
    shutdownDrainMs: int('SHUTDOWN_DRAIN_MS', { default: 1_000, min: 0, max: 60_000 }),
    /** How long handled event ids are remembered for deduplication (twice the default topic retention). */
    processedEventsRetentionHours: int('PROCESSED_EVENTS_RETENTION_HOURS', { default: 336, min: 1, max: 24 * 365 }),
    /**
     * Consumer groups are `<prefix>.<consumer>`, the prefix being the service's name unless set: a
     * second, independent copy of a service (its own database, as tests run them) needs its own
     * groups, or the two would split the partitions between them.
     */
    consumerGroupPrefix: optionalStr('KAFKA_CONSUMER_GROUP_PREFIX'),
    /**
     * A consumer holding events back longer than this (a message retried in place, a guard that
     * makes it wait) logs an error, counts `consumer_hold_alarms_total` and reports its readiness
     * check `consumers` as degraded.
     */
    consumerHoldAlarmMs: int('CONSUMER_HOLD_ALARM_MS', { default: 30_000, min: 100, max: 3_600_000 }),
    /**
     * Slow clients: a request head not complete within HTTP_HEADERS_TIMEOUT_MS (a connection
     * opened and left silent too), or a whole request, body included, not within
     * HTTP_REQUEST_TIMEOUT_MS (a body trickled a byte a second), is answered 408 and disconnected,
     * so held-open sockets cannot pile up. Bodies are at most 256 kB: 30 s is generous.
     */
    httpHeadersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', { default: 10_000, min: 1000, max: 120_000 }),
    httpRequestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', { default: 30_000, min: 1000, max: 600_000 }),
    /**
     * Consumer groups (shared/events group-timings.ts): a member with no heartbeat for
     * KAFKA_SESSION_TIMEOUT_MS is out of its group, which is how long a crashed process's partitions
     * wait before its restart (or another instance) gets them; heartbeats every
     * KAFKA_HEARTBEAT_INTERVAL_MS (at most a third of the session timeout), also while a message is
     * handled; a rebalance waits KAFKA_REBALANCE_TIMEOUT_MS for the live members to rejoin. The
     * broker must allow the session timeout (group.min.session.timeout.ms, 6 s by default).
     */
    kafkaSessionTimeoutMs: int('KAFKA_SESSION_TIMEOUT_MS', {
      default: DEFAULT_GROUP_TIMINGS.sessionTimeoutMs,
      min: 1000,
      max: 1_800_000,
    }),
    kafkaHeartbeatIntervalMs: int('KAFKA_HEARTBEAT_INTERVAL_MS', {
      default: DEFAULT_GROUP_TIMINGS.heartbeatIntervalMs,
      min: 100,
      max: 600_000,
    }),
    kafkaRebalanceTimeoutMs: int('KAFKA_REBALANCE_TIMEOUT_MS', {
      default: DEFAULT_GROUP_TIMINGS.rebalanceTimeoutMs,
      min: 1000,
      max: 1_800_000,
    }),
    /** How long start-up keeps trying to reach Kafka, MongoDB, Redis and the registry. */
    startupTimeoutMs: int('STARTUP_TIMEOUT_MS', { default: 60_000, min: 1000, max: 600_000 }),
  };
}

export type PlatformConfig = ReturnType<typeof loadConfig<ReturnType<typeof platformSettings>>>;

export type ServiceSettings = Record<string, Setting<unknown>>;

/** The consumer groups' timings of a configuration (checked together when the configuration is read). */
export function groupTimingsOf(
  config: Pick<PlatformConfig, 'kafkaSessionTimeoutMs' | 'kafkaHeartbeatIntervalMs' | 'kafkaRebalanceTimeoutMs'>,
): GroupTimings {
  return {
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    heartbeatIntervalMs: config.kafkaHeartbeatIntervalMs,
    rebalanceTimeoutMs: config.kafkaRebalanceTimeoutMs,
  };
}

/** What is wrong with the settings together (one alone is checked by its own range). */
export function platformConfigProblems(config: PlatformConfig): string[] {
  return [
    ...groupTimingProblems(groupTimingsOf(config)).map(
      (problem) => `KAFKA_SESSION_TIMEOUT_MS, KAFKA_HEARTBEAT_INTERVAL_MS, KAFKA_REBALANCE_TIMEOUT_MS: ${problem}`,
    ),
    ...kafkaConnectionProblems(config),
    ...registryConnectionProblems(config),
    ...redisConnectionProblems(config),
  ];
}
