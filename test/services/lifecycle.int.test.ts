import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { localEnv, repoRoot, startServiceProcess, stackEnv, type ServiceProcess } from '@marketplace/testing';
import { SERVICES } from './services';

// Each service as its own process, from its build, against the real stack.
describe.each(SERVICES)('%s process', (name, defaultPort) => {
  let service: ServiceProcess;
  const port = defaultPort + 100;

  beforeAll(async () => {
    service = await startServiceProcess(name, port, { MONGO_DATABASE: `it_lifecycle_${name.replace(/-/g, '_')}` });
  });
  afterAll(() => service?.stop());

  it('is alive and ready, with every dependency up', async () => {
    expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ status: 'ok', service: name });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      service: name,
      checks: { mongodb: 'up', redis: 'up', kafka: 'up', schemaRegistry: 'up', consumers: 'up' },
    });
  });

  it('exposes Prometheus metrics', async () => {
    const res = await fetch(`${service.url}/metrics`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toMatch(new RegExp(`process_resident_memory_bytes\\{service="${name}"\\}`));
  });

  it('answers an unknown route in its documented error shape', async () => {
    const res = await fetch(`${service.url}/no-such-route`);
    expect(res.status).toBe(404);
    const body = await res.json();
    if (name === 'provider-delivery')
      expect(body).toEqual({ code: 'resource.not_found', message: expect.any(String), retryable: false });
    else expect(body).toMatchObject({ status: 404, code: 'resource.not_found', title: 'Not Found' });
  });

  it('stops gracefully on SIGTERM, logging JSON lines only', async () => {
    expect(await service.stop()).toBe(0);
    const lines = service.output().trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { service: string; msg: string; level: string });
    expect(entries.every((e) => e.service === name)).toBe(true);
    expect(entries.map((e) => e.msg)).toEqual(expect.arrayContaining([`${name} ready`, 'stopping', 'stopped']));
    expect(entries.filter((e) => e.level === 'error')).toEqual([]);
  });
});

describe('configuration errors', () => {
  it('stop a service at start with one line naming each bad variable', () => {
    const env = stackEnv();
    const result = spawnSync(process.execPath, [join(repoRoot, 'services/catalog/dist/main.js')], {
      env: {
        PATH: process.env.PATH,
        MONGO_URL: env.MONGO_URL,
        REDIS_URL: 'http://not-redis',
        SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL,
        PORT: 'eighty',
      },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status).toBe(78);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'catalog: invalid configuration: PORT must be an integer between 1 and 65535; KAFKA_BROKERS is required; REDIS_URL must use one of the schemes redis, rediss; INTERNAL_IDENTITY_PUBLIC_KEY is required\n',
    );
  });

  // The secured stack (scripts/stack, STACK_SECURE): a wrong secret or a certificate the service
  // does not trust ends the start at once, naming the component; never a wait for the timeout.
  const secured = stackEnv().KAFKA_SECURITY_PROTOCOL === 'SASL_SSL';
  (secured ? it.each : it.skip.each)([
    [
      'a wrong Kafka password',
      { KAFKA_SASL_PASSWORD: 'not-the-password' },
      'could not connect to Kafka (topics): it refused the credentials (SASL authentication failed)',
    ],
    [
      'a Kafka certificate from a CA it does not trust',
      { KAFKA_SSL_CA_FILE: '' },
      'could not connect to Kafka (topics): its certificate is not trusted',
    ],
    [
      'a wrong Redis password',
      { REDIS_PASSWORD: 'not-the-password' },
      'could not connect to Redis: it refused the credentials (WRONGPASS)',
    ],
    [
      'a wrong schema registry password',
      { SCHEMA_REGISTRY_PASSWORD: 'not-the-password' },
      'could not connect to the schema registry: it refused the credentials (HTTP 401)',
    ],
  ])(
    'end a service at once on %s, naming the component (not a wait for the start-up timeout)',
    (_what, change, message) => {
      const result = spawnSync(process.execPath, [join(repoRoot, 'services/catalog/dist/main.js')], {
        env: {
          PATH: process.env.PATH,
          ...stackEnv(),
          ...localEnv(),
          STARTUP_TIMEOUT_MS: '120000',
          PORT: '4498',
          ...change,
        },
        encoding: 'utf8',
        timeout: 60_000, // half the start-up timeout: a service that waited for it would be killed here
      });
      expect(result.status).toBe(1);
      const output = `${result.stdout}${result.stderr}`;
      const fatal = output
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; msg: string; err?: { message: string } })
        .filter((l) => l.level === 'fatal');
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.err?.message).toContain(message);
      expect(output).not.toContain('not-the-password');
      for (const secret of ['KAFKA_SASL_PASSWORD', 'REDIS_PASSWORD', 'SCHEMA_REGISTRY_PASSWORD'])
        expect(output).not.toContain(stackEnv()[secret]!);
    },
    90_000,
  );

  it('end a service that cannot reach a dependency within the start-up timeout, with one fatal JSON line', () => {
    const env = stackEnv();
    const result = spawnSync(process.execPath, [join(repoRoot, 'services/catalog/dist/main.js')], {
      env: {
        PATH: process.env.PATH,
        ...env,
        ...localEnv(),
        MONGO_URL: 'mongodb://127.0.0.1:9/',
        STARTUP_TIMEOUT_MS: '2000',
        PORT: '4499',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    const lines = `${result.stdout}${result.stderr}`
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; msg: string; err?: { message: string } });
    const fatal = lines.filter((l) => l.level === 'fatal');
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({
      msg: 'failed to start',
      err: { message: expect.stringContaining('could not reach MongoDB before the start-up timeout') },
    });
  });
});
