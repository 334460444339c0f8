import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, testInfra, waitFor } from '@marketplace/testing';
import { SERVICES } from './services';

// `npm start` and `npm run status -- --json` as an operator runs them, on ports of their own.
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  SERVICES_RUN_FILE: join(mkdtempSync(join(tmpdir(), 'start-')), 'services.json'),
  MONGO_DATABASE_PREFIX: 'it_start',
};
for (const [name, port] of SERVICES) env[`${name.replace(/-/g, '_').toUpperCase()}_PORT`] = String(port + 400);

function status() {
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts/status.mjs'), '--json'], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return {
    code: result.status,
    report: JSON.parse(result.stdout) as {
      services: Record<string, { url: string; ready: boolean }>;
      stack: Record<string, { address: string; ready: boolean }>;
    },
  };
}

// `npm start` brings the native stack up itself: with TEST_INFRA=testcontainers this test is
// skipped (NATIVE_ONLY of @marketplace/testing).
const test = testInfra() === 'native' ? it : it.skip;

test('starts six ready services, reports them, and stops them cleanly on Ctrl-C', async () => {
  const start = spawn(process.execPath, [join(repoRoot, 'scripts/start.mjs')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  start.stdout.on('data', (chunk) => (output += String(chunk)));
  start.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
  try {
    await waitFor(
      'npm start to report all six services ready',
      () => output.includes('all six services are ready'),
      120_000,
      250,
    );
    const running = status();
    expect(running.code).toBe(0);
    expect(Object.keys(running.report.services)).toEqual(SERVICES.map(([name]) => name));
    for (const [name, port] of SERVICES)
      expect(running.report.services[name]).toEqual({ url: `http://127.0.0.1:${port + 400}`, ready: true });
    expect(Object.keys(running.report.stack).sort()).toEqual(['kafka', 'mongodb', 'redis', 'schemaRegistry']);
    expect(Object.values(running.report.stack).every((c) => c.ready && typeof c.address === 'string')).toBe(true);
  } finally {
    start.kill('SIGINT');
  }
  expect(await exited).toBe(0);
  for (const [name] of SERVICES) expect(output).toContain(`${name}: exited 0`);

  const stopped = status();
  expect(stopped.code).toBe(1);
  expect(Object.values(stopped.report.services).every((s) => !s.ready)).toBe(true);
}, 180_000);
