// The proof's own cluster: the six services as child processes of this script, on free ports, with
// databases and consumer groups of their own, so that a process can be killed (SIGKILL or SIGTERM)
// and started again with the same settings, as a crash-looping pod would be. And the stack's
// components (Kafka, the MongoDB-wire engine, Redis), killed by their pid files and started again
// by scripts/stack/stack.sh.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isReady, readStackEnv, root, stackDir } from '../../services.mjs';

const require = createRequire(join(root, 'package.json'));
const { freePort } = require('./shared/testing/dist/service-process.js');
const { waitFor } = require('./shared/testing/dist/wait.js');

/** Services in the order they start (the gateway last: it forwards to the others). */
export const SERVICES = [
  'catalog',
  'ordering-pricing',
  'delivery-assignment',
  'provider-delivery',
  'webhook-sender',
  'gateway-auth',
];
export const STACK_COMPONENTS = ['kafka', 'mongo', 'redis'];

const READY_TIMEOUT_MS = 90_000;
const EXIT_TIMEOUT_MS = 30_000;
const STACK_UP_TIMEOUT_MS = 240_000;

/** Polls `check` until it answers truthy; throws, naming `what`, after `timeoutMs` (shared/testing's waitFor). */
export const waitUntil = (what, check, timeoutMs, everyMs = 250) => waitFor(what, check, timeoutMs, everyMs);

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Six service processes sharing one run's settings. `logDir` receives one file per process start
 * (`<service>-<pid>.log`), which the secrets audit reads afterwards.
 */
export class Cluster {
  constructor({ tag, logDir, say }) {
    this.tag = tag;
    this.logDir = logDir;
    this.say = say;
    this.stackEnv = readStackEnv();
    /** name -> { name, port, url, env, child, exited } */
    this.services = new Map();
    /** Exits nobody asked for (a crash): each one a broken promise, with its code or signal. */
    this.crashes = [];
    mkdirSync(logDir, { recursive: true });
  }

  url(name) {
    return this.services.get(name).url;
  }

  /** Databases and consumer groups of this run's own (`proof_<tag>_<short>`), dropped at the end. */
  databases() {
    return [...this.services.values()].map((s) => s.env.MONGO_DATABASE);
  }

  async start(settings = {}) {
    const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (n) => [n, await freePort()])));
    const url = (name) => `http://127.0.0.1:${ports[name]}`;
    const own = (short) => ({
      MONGO_DATABASE: `proof_${this.tag}_${short}`,
      KAFKA_CONSUMER_GROUP_PREFIX: `proof-${this.tag}-${short}`,
    });
    const envs = {
      catalog: own('cat'),
      // The copies start at the topics' ends: the cluster is new and the seed comes after the start.
      'ordering-pricing': { ...own('ord'), CATALOG_COPY_START: 'latest', DELIVERY_COPY_START: 'latest' },
      'delivery-assignment': { ...own('dlv'), COPIES_START: 'latest' },
      'provider-delivery': {
        ...own('prv'),
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        PUBLIC_BASE_URL: url('provider-delivery'),
        PLATFORM_RATE_LIMIT_PER_IP: '10000000',
        ADMIN_RATE_LIMIT_PER_IP: '10000000',
        ADMIN_RATE_LIMIT_PER_ADMIN: '10000000',
      },
      'webhook-sender': { ...own('wh'), INSTALLATIONS_COPY_START: 'latest', ALLOW_LOOPBACK_HTTP_URLS: 'true' },
      'gateway-auth': {
        ...own('gw'),
        REDIS_KEY_PREFIX: `proof-${this.tag}:`,
        PUBLIC_BASE_URL: url('gateway-auth'),
        CATALOG_URL: url('catalog'),
        ORDERING_URL: url('ordering-pricing'),
        DELIVERY_URL: url('delivery-assignment'),
        WEBHOOKS_URL: url('webhook-sender'),
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        // Steady traffic from one address and one installation, on purpose above the defaults.
        RATE_LIMIT_PER_IP: '10000000',
        RATE_LIMIT_PER_INSTALLATION: '10000000',
        TENANT_RATE_LIMIT_PER_IP: '10000000',
        TENANT_RATE_LIMIT_PER_TENANT: '10000000',
        ADMIN_RATE_LIMIT_PER_IP: '10000000',
        ADMIN_RATE_LIMIT_PER_ADMIN: '10000000',
      },
    };
    for (const name of SERVICES) {
      this.services.set(name, {
        name,
        port: ports[name],
        url: url(name),
        env: { ...envs[name], ...settings },
        child: undefined,
        exited: undefined,
      });
    }
    // The owners first, together; the gateway once they answer.
    await Promise.all(SERVICES.filter((n) => n !== 'gateway-auth').map((n) => this.launch(n)));
    await this.launch('gateway-auth');
  }

  /** Starts `name` (again) with its settings and waits until its /readyz answers 200. */
  async launch(name) {
    const service = this.services.get(name);
    const child = spawn(process.execPath, [join(root, 'services', name, 'dist', 'main.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        ...this.stackEnv,
        PORT: String(service.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        ...service.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(join(this.logDir, `${name}-${child.pid}.log`));
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    service.child = child;
    service.stopping = false;
    service.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        log.end();
        if (!service.stopping) this.crashes.push({ name, pid: child.pid, code, signal, at: new Date().toISOString() });
        resolve({ code, signal });
      }),
    );
    const started = Date.now();
    await waitUntil(
      `${name} (pid ${child.pid}) to answer /readyz with 200`,
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) while starting`);
        return isReady(service.url);
      },
      READY_TIMEOUT_MS,
    );
    return Date.now() - started;
  }

  /** SIGKILL: no shutdown at all, as a node failure or the OOM killer would end it. */
  async kill(name) {
    const service = this.services.get(name);
    service.stopping = true;
    service.child.kill('SIGKILL');
    await service.exited;
  }

  /** SIGTERM, as Kubernetes stops a pod: resolves with how long the graceful stop took and its exit. */
  async terminate(name) {
    const service = this.services.get(name);
    const started = Date.now();
    service.stopping = true;
    service.child.kill('SIGTERM');
    const timer = setTimeout(() => service.child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
    const exit = await service.exited;
    clearTimeout(timer);
    return { ms: Date.now() - started, ...exit };
  }

  /** Stops every service (SIGTERM, SIGKILL after the timeout). */
  async stop() {
    await Promise.all(
      [...this.services.values()]
        .filter((s) => s.child && s.child.exitCode === null && s.child.signalCode === null)
        .map((s) => this.terminate(s.name)),
    );
  }

  /** SIGKILL to every service process still running (the run was interrupted). */
  killAll() {
    for (const s of this.services.values())
      if (s.child && s.child.exitCode === null) {
        s.stopping = true;
        s.child.kill('SIGKILL');
      }
  }

  /** kill -9 of a stack component (its pid file in .stack/run); resolves once the process is gone. */
  async killComponent(component) {
    const pid = Number(readFileSync(join(stackDir, 'run', `${component}.pid`), 'utf8').trim());
    process.kill(pid, 'SIGKILL');
    // Its port stays taken until the kernel has reaped it: starting again before would fail.
    await waitUntil(`${component} (pid ${pid}) to be gone after SIGKILL`, async () => !alive(pid), 10_000, 50);
    return pid;
  }

  /** Starts a stack component again (scripts/stack/stack.sh up, which waits until it is ready). */
  startComponent(component) {
    const started = Date.now();
    const result = spawnSync('bash', [join(root, 'scripts/stack/stack.sh'), 'up', component], {
      cwd: root,
      encoding: 'utf8',
      timeout: STACK_UP_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    if (result.status !== 0)
      throw new Error(`stack.sh up ${component} failed (${result.status}): ${result.stdout}${result.stderr}`);
    return Date.now() - started;
  }

  /** Waits until every service answers /readyz with 200 again (after a stack component came back). */
  async allReady(timeoutMs = READY_TIMEOUT_MS) {
    const started = Date.now();
    await Promise.all(
      [...this.services.values()].map((s) => waitUntil(`${s.name} to be ready again`, () => isReady(s.url), timeoutMs)),
    );
    return Date.now() - started;
  }
}
