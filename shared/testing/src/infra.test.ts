import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTAINER_IMAGES, containerPlan, NATIVE_ONLY, stackAddressesOf, testInfra, type ContainerSpec } from './infra';
import { repoRoot, stackEnv } from './stack';

const ADDRESSES = {
  KAFKA_BROKERS: 'kafka.test:19092',
  SCHEMA_REGISTRY_URL: 'http://registry.test:8080/apis/ccompat/v7',
  MONGO_URL: 'mongodb://mongo.test:27017/',
  REDIS_URL: 'redis://redis.test:6379',
};

/** A version pinned by a native stack script, e.g. `KAFKA_VERSION=3.9.2` in scripts/stack/kafka.sh. */
function pinnedByStack(script: string, variable: string): string {
  const match = new RegExp(`^${variable}=([0-9.]+)$`, 'm').exec(
    readFileSync(join(repoRoot, 'scripts/stack', script), 'utf8'),
  );
  if (!match) throw new Error(`scripts/stack/${script} sets no ${variable}`);
  return match[1]!;
}

describe('TEST_INFRA', () => {
  it('is the native stack by default', () => {
    expect(testInfra({})).toBe('native');
    expect(testInfra({ TEST_INFRA: '' })).toBe('native');
    expect(testInfra({ TEST_INFRA: '  ' })).toBe('native');
    expect(testInfra({ TEST_INFRA: 'native' })).toBe('native');
  });

  it('is testcontainers only when asked for by name', () => {
    expect(testInfra({ TEST_INFRA: 'testcontainers' })).toBe('testcontainers');
    expect(testInfra({ TEST_INFRA: ' testcontainers ' })).toBe('testcontainers');
  });

  it.each(['docker', 'Testcontainers', 'containers', 'true', 'native,testcontainers'])(
    'refuses %j, naming the value and the two choices',
    (value) => {
      expect(() => testInfra({ TEST_INFRA: value })).toThrow(
        `TEST_INFRA=${JSON.stringify(value)} is not a test infrastructure: use "native" (the default: the local ` +
          'stack of scripts/stack/) or "testcontainers"',
      );
    },
  );

  it('quotes at most 40 characters of a refused value', () => {
    expect(() => testInfra({ TEST_INFRA: 'x'.repeat(500) })).toThrow(`TEST_INFRA="${'x'.repeat(40)}" is not`);
  });
});

describe('the containers', () => {
  const plan = containerPlan({ dockerHost: 'localhost', kafkaPort: 32123 });
  const of = (component: ContainerSpec['component']) => plan.find((c) => c.component === component)!;

  it('replace each component of the native stack once', () => {
    expect(plan.map((c) => c.component).sort()).toEqual(['kafka', 'mongodb', 'redis', 'schemaRegistry']);
  });

  it('are pinned images, to the patch version', () => {
    for (const { image } of plan) expect(image).toMatch(/^[a-z0-9/_-]+:\d+\.\d+\.\d+$/);
    expect(of('mongodb').image).toMatch(/^mongo:7\.0\.\d+$/);
    expect(of('redis').image).toMatch(/^redis:7\.\d+\.\d+$/);
  });

  it('run the Kafka and Apicurio versions of the native stack', () => {
    expect(CONTAINER_IMAGES.kafka).toBe(`apache/kafka:${pinnedByStack('kafka.sh', 'KAFKA_DEFAULT_VERSION')}`);
    expect(CONTAINER_IMAGES.schemaRegistry).toBe(
      `apicurio/apicurio-registry:${pinnedByStack('registry.sh', 'REGISTRY_VERSION')}`,
    );
  });

  it('give Kafka a client listener on the same port inside and out, advertised at the engine host', () => {
    const kafka = of('kafka');
    expect(kafka).toMatchObject({ port: 32123, fixedHostPort: true });
    expect(kafka.env.KAFKA_LISTENERS).toContain('CLIENT://:32123');
    expect(kafka.env.KAFKA_ADVERTISED_LISTENERS).toContain('CLIENT://localhost:32123');
    // As the native stack: no topic created by accident, the services create theirs.
    expect(kafka.env.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    expect(
      containerPlan({ dockerHost: '192.168.5.2', kafkaPort: 40000 }).find((c) => c.component === 'kafka')!.env
        .KAFKA_ADVERTISED_LISTENERS,
    ).toContain('CLIENT://192.168.5.2:40000');
  });

  it('let Docker choose the other host ports', () => {
    expect(plan.filter((c) => c.fixedHostPort).map((c) => c.component)).toEqual(['kafka']);
  });

  it('wait for the registry to answer its Confluent-compatible API', () => {
    expect(of('schemaRegistry').readyWhen).toEqual({ httpGet: '/apis/ccompat/v7/subjects' });
  });

  it.each([9092, 9093, 80, 70000, 1.5])('refuse %j as the Kafka client port', (kafkaPort) => {
    expect(() => containerPlan({ dockerHost: 'localhost', kafkaPort })).toThrow(/Kafka client port/);
  });

  it('refuse a Docker host that is not a host name or address', () => {
    expect(() => containerPlan({ dockerHost: 'localhost/x', kafkaPort: 32123 })).toThrow(/not a host name/);
  });

  it('give the services the four stack addresses', () => {
    expect(
      stackAddressesOf({
        kafka: { host: 'localhost', port: 32123 },
        schemaRegistry: { host: 'localhost', port: 32768 },
        mongodb: { host: 'localhost', port: 32769 },
        redis: { host: 'localhost', port: 32770 },
      }),
    ).toEqual({
      KAFKA_BROKERS: 'localhost:32123',
      SCHEMA_REGISTRY_URL: 'http://localhost:32768/apis/ccompat/v7',
      MONGO_URL: 'mongodb://localhost:32769/',
      REDIS_URL: 'redis://localhost:32770',
    });
  });
});

describe('stackEnv', () => {
  it('takes the addresses from the environment first, on either infrastructure', () => {
    expect(stackEnv({ ...ADDRESSES })).toEqual(ADDRESSES);
    expect(stackEnv({ ...ADDRESSES, TEST_INFRA: 'testcontainers' })).toEqual(ADDRESSES);
  });

  it("with testcontainers, never falls back to the native stack's file", () => {
    const { REDIS_URL: _missing, ...three } = ADDRESSES;
    expect(() => stackEnv({ ...three, TEST_INFRA: 'testcontainers' })).toThrow(
      'REDIS_URL is not set: with TEST_INFRA=testcontainers, npm test starts the containers and sets it',
    );
  });

  it('refuses an unknown TEST_INFRA before reading anything', () => {
    expect(() => stackEnv({ ...ADDRESSES, TEST_INFRA: 'docker' })).toThrow(/is not a test infrastructure/);
  });
});

describe('what runs on the native stack only', () => {
  it('names tests that exist', () => {
    for (const path of Object.keys(NATIVE_ONLY.tests)) expect(existsSync(join(repoRoot, path))).toBe(true);
  });
});
