import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, startServiceProcess, waitFor, type ServiceProcess } from '@marketplace/testing';
import { SERVICES } from './services';

// Stops real stack components under the six running services and watches /readyz follow.
const services: ServiceProcess[] = [];

function stack(action: 'up' | 'down', component: string) {
  const result = spawnSync('bash', [join(repoRoot, 'scripts/stack/stack.sh'), action, component], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.status !== 0) throw new Error(`stack ${action} ${component} failed: ${result.stdout}${result.stderr}`);
}

async function readiness(service: ServiceProcess) {
  const res = await fetch(`${service.url}/readyz`, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as { checks: Record<string, string> } };
}

beforeAll(async () => {
  services.push(
    ...(await Promise.all(
      SERVICES.map(([name, port]) =>
        startServiceProcess(name, port + 200, { MONGO_DATABASE: `it_readiness_${name.replace(/-/g, '_')}` }),
      ),
    )),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
});

describe.each([
  ['mongo', 'mongodb'],
  ['redis', 'redis'],
  ['schema-registry', 'schemaRegistry'],
  ['kafka', 'kafka'],
])('when %s stops', (component, check) => {
  it(`every service turns unready with ${check} down, and ready again when it is back`, async () => {
    stack('down', component);
    try {
      for (const service of services) {
        const seen = await waitFor(
          `${service.name} /readyz to report ${check} down`,
          async () => {
            const r = await readiness(service);
            return r.status === 503 && r.body.checks[check] === 'down' ? r : undefined;
          },
          20_000,
          250,
        );
        expect(seen.body.checks[check]).toBe('down');
      }
    } finally {
      stack('up', component);
    }
    for (const service of services) {
      await waitFor(
        `${service.name} /readyz to be 200 again after ${component} restarted`,
        async () => (await readiness(service)).status === 200,
        60_000,
        500,
      );
    }
  }, 180_000);
});
