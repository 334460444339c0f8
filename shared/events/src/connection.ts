import { isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import { hostPortList, loadConfig, oneOf, optionalFileContents, optionalStr } from '@marketplace/config';

/**
 * How this deployment reaches Kafka: the bootstrap brokers, TLS and SASL. A managed Kafka (MSK,
 * Confluent Cloud, Aiven, Strimzi) is SASL_SSL with SCRAM or PLAIN; the local stack runs
 * SASL_SSL with SCRAM-SHA-512 and a CA of its own (scripts/stack/kafka.sh), so every test proves
 * these settings. The vocabulary is Kafka's own (`security.protocol`, `sasl.mechanism`).
 */
export interface KafkaConnection {
  brokers: string[];
  /** TLS to the brokers. `ca` (PEM) replaces the system's trusted CAs; `cert` and `key` are the client's, for mutual TLS. */
  tls?: { ca?: string; cert?: string; key?: string };
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

/** Kafka's `security.protocol` values: whether each speaks TLS and SASL. */
const PROTOCOLS = {
  PLAINTEXT: { tls: false, sasl: false },
  SSL: { tls: true, sasl: false },
  SASL_PLAINTEXT: { tls: false, sasl: true },
  SASL_SSL: { tls: true, sasl: true },
} as const;
type KafkaSecurityProtocol = keyof typeof PROTOCOLS;
export const KAFKA_SECURITY_PROTOCOLS = Object.keys(PROTOCOLS) as KafkaSecurityProtocol[];
export const KAFKA_SASL_MECHANISMS = ['SCRAM-SHA-512', 'SCRAM-SHA-256', 'PLAIN'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/**
 * The settings (environment variables) of the connection. Secrets may come from files:
 * `KAFKA_SASL_PASSWORD_FILE` (any setting takes `<NAME>_FILE`, @marketplace/config).
 */
export function kafkaConnectionSettings() {
  return {
    kafkaBrokers: hostPortList('KAFKA_BROKERS'),
    kafkaSecurityProtocol: oneOf('KAFKA_SECURITY_PROTOCOL', KAFKA_SECURITY_PROTOCOLS, { default: 'PLAINTEXT' }),
    kafkaSslCa: optionalFileContents('KAFKA_SSL_CA_FILE'),
    kafkaSslCert: optionalFileContents('KAFKA_SSL_CERT_FILE'),
    kafkaSslKey: optionalFileContents('KAFKA_SSL_KEY_FILE'),
    kafkaSaslMechanism: oneOf('KAFKA_SASL_MECHANISM', KAFKA_SASL_MECHANISMS, { default: 'SCRAM-SHA-512' }),
    kafkaSaslUsername: optionalStr('KAFKA_SASL_USERNAME'),
    kafkaSaslPassword: optionalStr('KAFKA_SASL_PASSWORD'),
  };
}

type KafkaConnectionValues = ReturnType<typeof loadConfig<ReturnType<typeof kafkaConnectionSettings>>>;

/** What is wrong with the settings together (each alone is checked by its own parser). */
export function kafkaConnectionProblems(v: KafkaConnectionValues): string[] {
  const problems: string[] = [];
  const { sasl, tls } = PROTOCOLS[v.kafkaSecurityProtocol];
  if (sasl && (v.kafkaSaslUsername === undefined || v.kafkaSaslPassword === undefined))
    problems.push(`KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with ${v.kafkaSecurityProtocol}`);
  if (!sasl && (v.kafkaSaslUsername !== undefined || v.kafkaSaslPassword !== undefined))
    problems.push(
      `KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SECURITY_PROTOCOL SASL_SSL or SASL_PLAINTEXT`,
    );
  if (!tls && [v.kafkaSslCa, v.kafkaSslCert, v.kafkaSslKey].some((f) => f !== undefined))
    problems.push(
      'KAFKA_SSL_CA_FILE, KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE need KAFKA_SECURITY_PROTOCOL SSL or SASL_SSL',
    );
  if ((v.kafkaSslCert === undefined) !== (v.kafkaSslKey === undefined))
    problems.push('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together (mutual TLS)');
  return problems;
}

/** The connection the settings describe (after kafkaConnectionProblems found nothing). */
export function kafkaConnectionOf(v: KafkaConnectionValues): KafkaConnection {
  const connection: KafkaConnection = { brokers: v.kafkaBrokers };
  const { sasl, tls } = PROTOCOLS[v.kafkaSecurityProtocol];
  if (tls) {
    connection.tls = {};
    if (v.kafkaSslCa !== undefined) connection.tls.ca = v.kafkaSslCa;
    if (v.kafkaSslCert !== undefined) connection.tls.cert = v.kafkaSslCert;
    if (v.kafkaSslKey !== undefined) connection.tls.key = v.kafkaSslKey;
  }
  if (sasl)
    connection.sasl = {
      mechanism: v.kafkaSaslMechanism,
      username: v.kafkaSaslUsername ?? '',
      password: v.kafkaSaslPassword ?? '',
    };
  return connection;
}

/** Reads the connection from an environment (a script's, a test's): throws ConfigError naming every problem. */
export function kafkaConnectionFromEnv(env: Record<string, string | undefined> = process.env): KafkaConnection {
  const values = loadConfig(kafkaConnectionSettings(), env);
  const problems = kafkaConnectionProblems(values);
  if (problems.length > 0) throw new Error(`invalid configuration: ${problems.join('; ')}`);
  return kafkaConnectionOf(values);
}

/** The kafkajs options of a connection: `ssl` and `sasl` (kafkajs names the mechanisms in lower case). */
export function kafkajsSecurity(connection: KafkaConnection): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const options: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  if (connection.tls) options.ssl = Object.keys(connection.tls).length === 0 ? true : { ...connection.tls };
  if (connection.sasl) {
    const { mechanism, username, password } = connection.sasl;
    options.sasl = { mechanism: mechanism.toLowerCase(), username, password } as SASLOptions;
  }
  return options;
}

/** A connection for logs and the status table: what runs, never the password or the keys. */
export function describeKafkaConnection(connection: KafkaConnection): string {
  const protocol = KAFKA_SECURITY_PROTOCOLS.find(
    (p) => PROTOCOLS[p].tls === Boolean(connection.tls) && PROTOCOLS[p].sasl === Boolean(connection.sasl),
  );
  const sasl = connection.sasl ? ` ${connection.sasl.mechanism} as ${connection.sasl.username}` : '';
  const ca = connection.tls ? (connection.tls.ca ? ', CA from file' : ', system CAs') : '';
  return `${connection.brokers.join(',')} ${protocol}${sasl}${ca}`;
}

/**
 * Checks, before any Kafka call, that a TLS connection's first broker presents a certificate this
 * client trusts: kafkajs retries a failed handshake as it would a broker still starting (half a
 * minute), where an untrusted certificate will never pass. Rejects with the TLS error (its `code`
 * names the cause); a broker that does not answer rejects too, to be retried like any other.
 */
export function checkKafkaTls(connection: KafkaConnection, timeoutMs = 3000): Promise<void> {
  if (!connection.tls) return Promise.resolve();
  const broker = connection.brokers[0]!;
  const at = broker.lastIndexOf(':');
  const host = broker.slice(0, at).replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host,
      port: Number(broker.slice(at + 1)),
      servername: isIP(host) ? undefined : host,
      ...connection.tls,
    });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no TLS handshake with ${broker} within ${timeoutMs} ms`)),
    );
    socket.once('secureConnect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', reject);
  });
}
