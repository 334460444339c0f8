import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '@marketplace/logging';
import { STOPPING_MESSAGE } from './failure';
import { kafkajsSecurity, type KafkaConnection } from './connection';

export interface KafkaSettings {
  connection: KafkaConnection;
  clientId: string;
  logger: Logger;
}

/** A kafkajs client (TLS and SASL as the connection says) whose own log lines go through our logger (JSON, redacted). */
export function createKafka({ connection, clientId, logger }: KafkaSettings): Kafka {
  const log = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers: connection.brokers,
    ...kafkajsSecurity(connection),
    connectionTimeout: 3000,
    requestTimeout: 30000,
    retry: { initialRetryTime: 300, retries: 8, maxRetryTime: 10_000 },
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      const { message, ...extra } = entry.log;
      // Our producers bound their retries on purpose (a publish must fail rather than hang; the
      // outbox retries it and consumers dedupe), which kafkajs warns about at every start.
      if (message.startsWith('Limiting retries for the idempotent producer')) return;
      const fields = { namespace: entry.namespace, ...extra };
      // A broker's error response (a coordinator still loading, a leader moving) is retried by
      // kafkajs itself; if retries run out, the failing call rejects and its caller logs that.
      const retriedByClient = entry.namespace === 'Connection' && message.startsWith('Response ');
      if (message.includes(STOPPING_MESSAGE))
        return log.info(fields, 'consumer left its message for the next consumer');
      if (entry.level === logLevel.ERROR && !retriedByClient) log.error(fields, message);
      else if (entry.level === logLevel.ERROR || entry.level === logLevel.WARN) log.warn(fields, message);
      else log.debug(fields, message);
    },
  });
}
