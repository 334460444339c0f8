import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '@marketplace/logging';
import { STOPPING_MESSAGE } from './failure';
import { kafkajsSecurity, type KafkaConnection } from './connection';

export interface KafkaSettings {
  connection: KafkaConnection;
  clientId: string;
  logger: Logger;
}

/**
 * kafkajs 2.2.4 computes a negative delay in its request queue when no broker throttles it
 * (tulios/kafkajs#1751, unfixed in 2.x); Node 24 warns about it at every connection on stderr,
 * outside our logs, and already waits 1 ms, which is what kafkajs means. That one warning, from
 * kafkajs's own frames only, is dropped; every other warning goes through unchanged.
 */
export function isKafkajsNegativeTimeoutWarning(type: string | undefined, stack: string | undefined): boolean {
  return type === 'TimeoutNegativeWarning' && /kafkajs[\\/]src[\\/]/.test(stack ?? '');
}

export function dropKafkajsNegativeTimeoutWarning(): void {
  const marker = Symbol.for('marketplace.kafkajsNegativeTimeoutWarning');
  const state = process as unknown as Record<symbol, boolean>;
  if (state[marker]) return;
  state[marker] = true;
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = (warning: unknown, ...rest: unknown[]) => {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (isKafkajsNegativeTimeoutWarning(type, new Error().stack)) return;
    emitWarning(warning, ...rest);
  };
}

/**
 * kafkajs's retries of a request, a connection or a group join: a retry at most every 3 s, for
 * about a minute in all. When a broker of several dies, its partitions and the groups it
 * coordinates move once the controller fences it (broker.session.timeout.ms, 9 s by default);
 * with waits of up to 10 s (as before), a consumer joining meanwhile found the new coordinator up
 * to 10 s after the move: the fault proof's three-broker run saw a restarted webhook-sender ready
 * 29.6 s after its start. Short waits cost little while Kafka is away (one attempt per 3 s).
 */
export const KAFKA_RETRY = { initialRetryTime: 300, retries: 20, maxRetryTime: 3_000 } as const;

/** kafkajs's message for COORDINATOR_LOAD_IN_PROGRESS (error code 14), as a consumer's crash line has it. */
const COORDINATOR_LOADING = /^Crash: KafkaJSProtocolError: The coordinator is loading/;

/**
 * How a kafkajs log line reaches our logger: its level, and the races of every start told calmly.
 * One route per client: it remembers which groups' consumers last crashed on a loading coordinator.
 */
export function kafkajsLogRoute(log: Logger): (entry: LogEntry) => void {
  // Groups whose consumer last crashed because its coordinator was still loading, so that the
  // restart line that follows is told as calmly as the crash.
  const loadingCoordinator = new Set<string>();
  return (entry: LogEntry) => {
    const { message, ...extra } = entry.log;
    const fields = { namespace: entry.namespace, ...extra };
    if (message.includes(STOPPING_MESSAGE)) return log.info(fields, 'consumer left its message for the next consumer');
    // A group's coordinator loads its state from __consumer_offsets when a broker starts or
    // takes the partition over (a fresh cluster's first start does this for every group): a
    // consumer joining meanwhile crashes with COORDINATOR_LOAD_IN_PROGRESS, which Kafka calls
    // retriable, and kafkajs starts it again. Told at info; a consumer that never joins shows
    // in readiness (the consumers check), and any other crash stays an error.
    const groupId = typeof extra.groupId === 'string' ? extra.groupId : undefined;
    if (entry.namespace === 'Consumer' && groupId !== undefined) {
      if (message.startsWith('Crash: ')) {
        if (COORDINATOR_LOADING.test(message)) {
          loadingCoordinator.add(groupId);
          return log.info(fields, 'consumer restarts: its group coordinator is still loading');
        }
        loadingCoordinator.delete(groupId);
      } else if (message.startsWith('Restarting the consumer') && loadingCoordinator.delete(groupId)) {
        return log.info(fields, message);
      }
    }
    // A broker's error response (a coordinator still loading, a leader moving, a topic another
    // service is creating at the same start) is retried by kafkajs itself: debug, so a start's
    // terminal shows what matters; if retries run out, the failing call rejects and its caller
    // logs that.
    const retriedByClient = entry.namespace === 'Connection' && message.startsWith('Response ');
    if (entry.level === logLevel.ERROR && !retriedByClient) log.error(fields, message);
    else if (retriedByClient) log.debug(fields, message);
    else if (entry.level === logLevel.ERROR || entry.level === logLevel.WARN) log.warn(fields, message);
    else log.debug(fields, message);
  };
}

/** A kafkajs client (TLS and SASL as the connection says) whose own log lines go through our logger (JSON, redacted). */
export function createKafka({ connection, clientId, logger }: KafkaSettings): Kafka {
  dropKafkajsNegativeTimeoutWarning();
  const log = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers: connection.brokers,
    ...kafkajsSecurity(connection),
    connectionTimeout: 3000,
    requestTimeout: 30000,
    retry: KAFKA_RETRY,
    logLevel: logLevel.WARN,
    logCreator: () => kafkajsLogRoute(log),
  });
}
