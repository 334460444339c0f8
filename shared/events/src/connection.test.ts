import { ConfigError } from '@marketplace/config';
import { describeKafkaConnection, kafkaConnectionFromEnv, kafkajsSecurity } from './connection';
import { registryAuthorization, registryConnectionFromEnv } from './registry-connection';

describe('the Kafka connection settings', () => {
  it('are plaintext brokers by default', () => {
    const connection = kafkaConnectionFromEnv({ KAFKA_BROKERS: 'a:9092,b:9092' });
    expect(connection).toEqual({ brokers: ['a:9092', 'b:9092'] });
    expect(kafkajsSecurity(connection)).toEqual({});
  });

  it('give kafkajs TLS and SASL (SCRAM-SHA-512 by default), and describe it without the password', () => {
    const connection = kafkaConnectionFromEnv({
      KAFKA_BROKERS: 'broker.example:9096',
      KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
      KAFKA_SASL_USERNAME: 'orders',
      KAFKA_SASL_PASSWORD: 'p4ss-w0rd',
    });
    expect(kafkajsSecurity(connection)).toEqual({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'orders', password: 'p4ss-w0rd' },
    });
    const described = describeKafkaConnection(connection);
    expect(described).toBe('broker.example:9096 SASL_SSL SCRAM-SHA-512 as orders, system CAs');
    expect(described).not.toContain('p4ss-w0rd');
    expect(
      kafkajsSecurity(
        kafkaConnectionFromEnv({
          KAFKA_BROKERS: 'b:9092',
          KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
          KAFKA_SASL_MECHANISM: 'PLAIN',
          KAFKA_SASL_USERNAME: 'u',
          KAFKA_SASL_PASSWORD: 'p',
        }),
      ),
    ).toEqual({ sasl: { mechanism: 'plain', username: 'u', password: 'p' } });
  });

  it('refuse settings that contradict each other, naming them', () => {
    expect(() => kafkaConnectionFromEnv({ KAFKA_BROKERS: 'b:1', KAFKA_SECURITY_PROTOCOL: 'SASL_SSL' })).toThrow(
      'KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with SASL_SSL',
    );
    expect(() =>
      kafkaConnectionFromEnv({ KAFKA_BROKERS: 'b:1', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }),
    ).toThrow('need KAFKA_SECURITY_PROTOCOL SASL_SSL or SASL_PLAINTEXT');
    expect(() => kafkaConnectionFromEnv({ KAFKA_BROKERS: 'b:1', KAFKA_SECURITY_PROTOCOL: 'TLS' })).toThrow(ConfigError);
  });
});

describe('the schema registry connection settings', () => {
  it('sign in with basic or bearer, and refuse credentials in the URL', () => {
    const basic = registryConnectionFromEnv({
      SCHEMA_REGISTRY_URL: 'https://registry.example/apis/ccompat/v7',
      SCHEMA_REGISTRY_USERNAME: 'orders',
      SCHEMA_REGISTRY_PASSWORD: 'secret',
    });
    expect(registryAuthorization(basic)).toBe(`Basic ${Buffer.from('orders:secret').toString('base64')}`);
    const bearer = registryConnectionFromEnv({
      SCHEMA_REGISTRY_URL: 'https://r.example',
      SCHEMA_REGISTRY_TOKEN: 't0k',
    });
    expect(registryAuthorization(bearer)).toBe('Bearer t0k');
    expect(registryAuthorization(registryConnectionFromEnv({ SCHEMA_REGISTRY_URL: 'http://r:8081' }))).toBeUndefined();
    expect(() => registryConnectionFromEnv({ SCHEMA_REGISTRY_URL: 'https://u:p@r.example' })).toThrow(
      'SCHEMA_REGISTRY_URL must not carry credentials',
    );
    expect(() =>
      registryConnectionFromEnv({ SCHEMA_REGISTRY_URL: 'https://r', SCHEMA_REGISTRY_USERNAME: 'u' }),
    ).toThrow('SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD go together');
  });
});
