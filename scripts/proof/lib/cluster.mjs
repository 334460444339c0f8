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
import { COMPONENTS, SERVICES } from './nemesis.mjs';
import { plantArguments } from './plants.mjs';

const require = createRequire(join(root, 'package.json'));
const { freePort } = require('./shared/testing/dist/service-process.js');
const { waitFor } = require('./shared/testing/dist/wait.js');

/** Services in the order they start (the gateway last: it forwards to the others), and the stack's components. */
export { SERVICES, COMPONENTS as STACK_COMPONENTS };

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
  constructor({ tag, logDir, say, plants = [], stackEnv = readStackEnv() }) {
    this.tag = tag;
    /** Planted defects (lib/plants.mjs): their files go into the starts they name. */
    this.plants = plants;
    /** How many times each service was started (a plant may go into the later starts only). */
    this.starts = new Map();
    this.logDir = logDir;
    this.say = say;
    /** What the services are told of the stack (with --brokers 3: the proof's own Kafka instead). */
    this.stackEnv = stackEnv;
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
      // Retries 20 times sooner (the first after 6 s, not 2 minutes): a webhook refused during a
      // partner-endpoint fault is retried within the run's drain.
      'webhook-sender': {
        ...own('wh'),
        INSTALLATIONS_COPY_START: 'latest',
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        WEBHOOK_RETRY_TIME_SCALE: '20',
      },
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

  /**
   * Starts `name` (again) with its settings and waits until its /readyz answers 200 (at most
   * `timeoutMs`: past it, the process is left running and the wait throws).
   */
  async launch(name, { timeoutMs = READY_TIMEOUT_MS } = {}) {
    const service = this.services.get(name);
    this.spawnInstance(name, service);
    return this.untilReady(name, service, timeoutMs);
  }

  /**
   * Starts a second instance of `name` (same settings, database and consumer groups, another
   * port): its consumers join the groups the first one is in, which rebalance. Answers once it has
   * connected to Kafka (its consumers then join); `untilTwinReady` waits for its /readyz.
   */
  async startTwin(name) {
    const service = this.services.get(name);
    const port = await freePort();
    // One courier simulator per account, in one process (services/provider-delivery/src/simulator).
    const settings = name === 'provider-delivery' ? { SIMULATOR_ENABLED: 'false' } : {};
    service.twin = { port, url: `http://127.0.0.1:${port}`, settings };
    const child = this.spawnInstance(name, service.twin);
    // Its consumers start joining right after it logs its Kafka connection (and its HTTP server
    // listens only once they have joined): the moment to answer is that line, not /healthz.
    let output = '';
    const connected = new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output = (output + String(chunk)).slice(-4_000);
        if (output.includes('"msg":"connected to Kafka"')) resolve();
      });
      child.once('exit', (code, signal) =>
        reject(new Error(`${name}'s second instance exited (${code ?? signal}) while starting`)),
      );
    });
    let timer;
    await Promise.race([
      connected,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${name}'s second instance did not connect to Kafka within ${READY_TIMEOUT_MS} ms`)),
          READY_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  untilTwinReady(name, timeoutMs = READY_TIMEOUT_MS) {
    return this.untilReady(name, this.services.get(name).twin, timeoutMs);
  }

  /** SIGTERM of the second instance: how long its graceful stop took, and its exit. */
  async terminateTwin(name) {
    const service = this.services.get(name);
    const exit = await this.stopInstance(service.twin, 'SIGTERM');
    service.twin = undefined;
    return exit;
  }

  /** Spawns one process of `name` on `instance.port` (the service itself, or its twin) and tracks its exit. */
  spawnInstance(name, instance) {
    const service = this.services.get(name);
    const nth = (this.starts.get(name) ?? 0) + 1;
    this.starts.set(name, nth);
    const preload = plantArguments(this.plants, name, nth);
    const child = spawn(process.execPath, [...preload, join(root, 'services', name, 'dist', 'main.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        ...this.stackEnv,
        PORT: String(instance.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: process.env.PROOF_LOG_LEVEL ?? 'info',
        ...service.env,
        ...instance.settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(join(this.logDir, `${name}-${child.pid}.log`));
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    instance.child = child;
    instance.stopping = false;
    instance.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        log.end();
        if (!instance.stopping) this.crashes.push({ name, pid: child.pid, code, signal, at: new Date().toISOString() });
        resolve({ code, signal });
      }),
    );
    return child;
  }

  async untilReady(name, instance, timeoutMs) {
    const { child } = instance;
    const started = Date.now();
    await waitUntil(
      `${name} (pid ${child.pid}) to answer /readyz with 200`,
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) while starting`);
        return isReady(instance.url);
      },
      timeoutMs,
    );
    return Date.now() - started;
  }

  /** A signal to one instance; SIGKILL after EXIT_TIMEOUT_MS. Resolves with the time to exit and the exit. */
  async stopInstance(instance, signal) {
    const started = Date.now();
    instance.stopping = true;
    instance.child.kill(signal);
    const timer = setTimeout(() => instance.child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
    const exit = await instance.exited;
    clearTimeout(timer);
    return { ms: Date.now() - started, ...exit };
  }

  /** SIGSTOP: the process keeps its sockets and leases but runs nothing (a stalled VM, a long GC). */
  pause(name) {
    this.services.get(name).child.kill('SIGSTOP');
  }

  /** SIGCONT after `pause`. */
  resume(name) {
    this.services.get(name).child.kill('SIGCONT');
  }

  /** Whether `name` answers /readyz with 200 now. */
  ready(name) {
    return isReady(this.url(name));
  }

  /** Every service's /readyz body now (undefined where none came within 6 s: a check waits 2 s at most). */
  async readiness() {
    return Object.fromEntries(
      await Promise.all(
        SERVICES.map(async (name) => {
          const res = await fetch(`${this.url(name)}/readyz`, { signal: AbortSignal.timeout(6_000) }).catch(
            () => undefined,
          );
          return [name, res ? await res.json().catch(() => undefined) : undefined];
        }),
      ),
    );
  }

  /** SIGKILL: no shutdown at all, as a node failure or the OOM killer would end it. */
  async kill(name) {
    await this.stopInstance(this.services.get(name), 'SIGKILL');
  }

  /** SIGTERM, as Kubernetes stops a pod: resolves with how long the graceful stop took and its exit. */
  terminate(name) {
    return this.stopInstance(this.services.get(name), 'SIGTERM');
  }

  /** Stops every service, second instances included (SIGTERM, SIGKILL after the timeout). */
  async stop() {
    const running = (i) => i?.child && i.child.exitCode === null && i.child.signalCode === null;
    await Promise.all(
      [...this.services.values()].flatMap((s) => [
        ...(running(s) ? [this.terminate(s.name)] : []),
        ...(running(s.twin) ? [this.stopInstance(s.twin, 'SIGTERM')] : []),
      ]),
    );
  }

  /** SIGKILL to every service process still running (the run was interrupted). */
  killAll() {
    for (const s of this.services.values())
      for (const i of [s, s.twin])
        if (i?.child && i.child.exitCode === null) {
          i.stopping = true;
          i.child.kill('SIGKILL');
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
