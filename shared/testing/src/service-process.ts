import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localEnv, stackEnv, repoRoot } from './stack';
import { waitFor } from './wait';

/** Where service processes started by tests write their logs. */
export const SERVICE_LOG_DIR = join(repoRoot, '.test-results', 'service-logs');

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends SIGTERM and resolves with the exit code (or rejects after the timeout). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * The limits of the tenant, administrator, courier, platform (per IP) and public surfaces, raised:
 * every test file calls them from 127.0.0.1 with the same administrator token, and files share the
 * services' Redis buckets; a test of a limit passes its own small value in `env`, which wins.
 */
const SURFACE_LIMITS_RAISED: Record<string, string> = Object.fromEntries(
  [
    'TENANT_RATE_LIMIT_PER_IP',
    'TENANT_RATE_LIMIT_PER_TENANT',
    'ADMIN_RATE_LIMIT_PER_IP',
    'ADMIN_RATE_LIMIT_PER_ADMIN',
    'PLATFORM_RATE_LIMIT_PER_IP',
    'COURIER_RATE_LIMIT_PER_IP',
    'COURIER_RATE_LIMIT_PER_DRIVER',
    'PUBLIC_RATE_LIMIT_PER_IP',
    'TRACKING_RATE_LIMIT_PER_TOKEN',
  ].map((name) => [name, '1000000']),
);

/** Spawns `services/<name>/dist/main.js` with the stack's addresses, the port and the raised limits. */
function spawnService(name: string, port: number, env: Record<string, string>): ChildProcess {
  const main = join(repoRoot, 'services', name, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} does not exist: run npm run build first`);
  return spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      ...stackEnv(),
      ...localEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...SURFACE_LIMITS_RAISED,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Keeps what the process writes, in memory and in its log file. Every service process of a test
 * run leaves its log in .test-results/service-logs, where the audit at the end of `npm test`
 * checks that no secret was ever written.
 */
function captureOutput(name: string, child: ChildProcess): () => string {
  let output = '';
  mkdirSync(SERVICE_LOG_DIR, { recursive: true });
  const logFile = createWriteStream(join(SERVICE_LOG_DIR, `${name}-${child.pid}.log`));
  child.stdout!.on('data', (chunk) => ((output += String(chunk)), logFile.write(chunk)));
  child.stderr!.on('data', (chunk) => ((output += String(chunk)), logFile.write(chunk)));
  child.once('exit', () => logFile.end());
  return () => output;
}

/** The handle a test holds: its stop saves the last metrics, sends SIGTERM and waits for the exit. */
function serviceHandle(name: string, port: number, child: ChildProcess, output: () => string): ServiceProcess {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    url,
    child,
    output,
    async stop(timeoutMs = 20_000) {
      if (child.exitCode !== null) return child.exitCode;
      await saveMetrics(name, child.pid, url);
      child.kill('SIGTERM');
      return waitFor(
        `${name} to exit after SIGTERM`,
        async () => (child.exitCode !== null || child.signalCode !== null ? { code: await exited } : undefined),
        timeoutMs,
      ).then((r) => r.code);
    },
  };
}

/**
 * Starts a built service (`services/<name>/dist/main.js`) as its own process against the local
 * stack, on the given port, and waits until /readyz answers 200.
 */
export async function startServiceProcess(
  name: string,
  port: number,
  env: Record<string, string> = {},
  readyTimeoutMs = 45_000,
): Promise<ServiceProcess> {
  const child = spawnService(name, port, env);
  const output = captureOutput(name, child);
  const service = serviceHandle(name, port, child, output);
  try {
    await waitFor(
      `${name} to answer /readyz with 200`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output().slice(-2000)}`);
        const res = await fetch(`${service.url}/readyz`, { signal: AbortSignal.timeout(3000) });
        return res.status === 200;
      },
      readyTimeoutMs,
      250,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return service;
}

/**
 * The process's last /metrics scrape, saved beside its log as `<name>-<pid>.metrics`: the secrets
 * audit checks metric labels as it checks log lines. Bounded (2 s); a process that does not
 * answer leaves no file, and the stop goes on.
 */
async function saveMetrics(name: string, pid: number | undefined, url: string): Promise<void> {
  try {
    const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(2000) });
    const text = await res.text();
    if (res.ok) writeFileSync(join(SERVICE_LOG_DIR, `${name}-${pid}.metrics`), text);
  } catch {
    // not answering (stopped, hung): nothing to save
  }
}

/** A TCP port nothing listens on right now (the OS picks it), for a service started by a test. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts several services side by side. If one fails to start, the others are stopped before the
 * error is thrown: a process left running would keep jest from exiting.
 */
export async function startServiceProcesses(starts: Array<Promise<ServiceProcess>>): Promise<ServiceProcess[]> {
  const results = await Promise.allSettled(starts);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return results.map((r) => (r as PromiseFulfilledResult<ServiceProcess>).value);
  await Promise.all(
    results.map(async (r) => (r.status === 'fulfilled' ? r.value.stop().catch(() => undefined) : undefined)),
  );
  throw failed.reason;
}
