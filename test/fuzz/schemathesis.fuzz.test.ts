import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findSecrets,
  freePort,
  repoRoot,
  startReceiver,
  startServiceProcess,
  startServiceProcesses,
  uniqueName,
  type Receiver,
  type ServiceProcess,
} from '@marketplace/testing';

// Schemathesis against every OpenAPI document the cluster serves (scripts/fuzz/api.mjs, one
// schemathesis run per target): all six services as processes with databases of their own, rate
// limits raised so the fuzzer is never throttled (the demo platform account's by the script, for
// its run), the demo seed (one tenant, a menu, an order source, two delivery providers and a
// platform account on provider-delivery), then each target with a fixed seed, so a failure here
// repeats with the command printed below. Every check runs; what is excluded, and why, is in the
// script. The provider target fuzzes provider-delivery's contract document directly (platforms do
// not go through the gateway).
//
// The project `fuzz` runs alone (scripts/test.mjs, --runInBand), after unit and integration. The
// first run on a machine installs schemathesis (pip, outside the repository): the first beforeAll.

/** In the order the script runs them: the tenant targets change data the partner targets use. */
const TARGETS = [
  'partner-orders',
  'partner-delivery',
  'tenant-deliveries',
  'tenant-orders',
  'tenant-webhooks',
  'tenant-catalog',
  'tenant',
  'admin',
  'oauth',
  'provider',
];
const SEED = 20_261_124;
/** Test cases per operation and phase: the whole project stays under ~5 minutes on 2 cores. */
const MAX_EXAMPLES = 25;
/** The script stops a target's schemathesis after this long (and fails it); jest waits a bit longer. */
const TARGET_TIMEOUT_MINUTES = 2;
const TARGET_TEST_TIMEOUT_MS = TARGET_TIMEOUT_MINUTES * 60_000 + 30_000;
/** pip from PyPI on a fresh machine (the script's own limits: 2 min venv, 10 min pip). */
const INSTALL_TIMEOUT_MS = 13 * 60_000;
const SCRIPT = join(repoRoot, 'scripts', 'fuzz', 'api.mjs');
/** What a failure shows of the script's output, at most. */
const SHOWN_CHARS = 24_000;

let services: ServiceProcess[] = [];
let gateway: ServiceProcess | undefined;
let receiver: Receiver | undefined;
let dir: string | undefined;
let fixtureFile = '';
let knownSecrets: string[] = [];
const children = new Set<ChildProcess>();

// The scripts mint their admin tokens from .stack/local.env, as the gateway of this test checks them.
const childEnv: NodeJS.ProcessEnv = { ...process.env };
delete childEnv.MARKETPLACE_ADMIN_TOKEN;
delete childEnv.MARKETPLACE_TOKEN_SECRET;

/** A node script of ours as a child of its own process group (killed with it in afterAll), output captured. */
function runScript(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, output });
    });
  });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL'); // the script and its schemathesis
  } catch {
    // already gone
  }
}

/** The part of the script's output worth reading after a failure: schemathesis' failures and summary, then the script's. */
function failureReport(output: string): string {
  const start = output.search(/=+ FAILURES =+|=+ ERRORS =+/);
  const shown = start === -1 ? output : output.slice(start);
  return shown.length > SHOWN_CHARS ? `…${shown.slice(-SHOWN_CHARS)}` : shown;
}

beforeAll(async () => {
  const install = await runScript([SCRIPT, '--install'], INSTALL_TIMEOUT_MS);
  if (install.code !== 0) throw new Error(`installing schemathesis failed (exit ${install.code}):\n${install.output}`);
}, INSTALL_TIMEOUT_MS + 10_000);

beforeAll(async () => {
  // Own databases and consumer groups; the copies of the shared topics start at new messages (the
  // seed comes after the start), as in test/demo/seed.int.test.ts.
  const suffix = uniqueName('fuzz').replace(/-/g, '_');
  const own = (name: string) => ({
    MONGO_DATABASE: `it_${suffix}_${name}`.slice(0, 60),
    KAFKA_CONSUMER_GROUP_PREFIX: `it-${suffix}-${name}`,
  });
  receiver = await startReceiver();
  services = await startServiceProcesses([
    startServiceProcess('catalog', await freePort(), own('cat'), 90_000),
    startServiceProcess(
      'ordering-pricing',
      await freePort(),
      { ...own('ord'), CATALOG_COPY_START: 'latest', DELIVERY_COPY_START: 'latest' },
      90_000,
    ),
    // Its copies of orders, installations and branches too: the demo tenant is new.
    startServiceProcess('delivery-assignment', await freePort(), { ...own('dlv'), COPIES_START: 'latest' }, 90_000),
    // The demo platform account's webhook URL is the receiver's: plain http on loopback.
    startServiceProcess(
      'provider-delivery',
      await freePort(),
      {
        ...own('prv'),
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        // The provider target sends thousands of requests a minute from one address.
        PLATFORM_RATE_LIMIT_PER_IP: '10000000',
        ADMIN_RATE_LIMIT_PER_IP: '10000000',
        ADMIN_RATE_LIMIT_PER_ADMIN: '10000000',
      },
      90_000,
    ),
    startServiceProcess(
      'webhook-sender',
      await freePort(),
      { ...own('wh'), INSTALLATIONS_COPY_START: 'latest', ALLOW_LOOPBACK_HTTP_URLS: 'true' },
      90_000,
    ),
  ]);
  const [catalog, ordering, delivery, provider, sender] = services;
  const port = await freePort();
  gateway = await startServiceProcess(
    'gateway-auth',
    port,
    {
      ...own('gw'),
      REDIS_KEY_PREFIX: `${suffix}:`.slice(0, 64),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      CATALOG_URL: catalog!.url,
      ORDERING_URL: ordering!.url,
      DELIVERY_URL: delivery!.url,
      WEBHOOKS_URL: sender!.url,
      ALLOW_LOOPBACK_HTTP_URLS: 'true',
      // Schemathesis sends thousands of requests a minute from one address and one installation.
      RATE_LIMIT_PER_IP: '10000000',
      RATE_LIMIT_PER_INSTALLATION: '10000000',
      TENANT_RATE_LIMIT_PER_IP: '10000000',
      TENANT_RATE_LIMIT_PER_TENANT: '10000000',
      ADMIN_RATE_LIMIT_PER_IP: '10000000',
      ADMIN_RATE_LIMIT_PER_ADMIN: '10000000',
    },
    90_000,
  );

  dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  fixtureFile = join(dir, 'demo.json');
  const seed = await runScript(
    [
      join(repoRoot, 'scripts', 'demo', 'seed.mjs'),
      '--gateway',
      gateway.url,
      '--provider-url',
      provider!.url,
      '--webhook-url',
      `${receiver.url}/hooks`,
      '--out',
      fixtureFile,
    ],
    90_000,
  );
  if (seed.code !== 0) throw new Error(`the demo seed exited ${seed.code}:\n${seed.output}`);
  const fixture = JSON.parse(readFileSync(fixtureFile, 'utf8'));
  knownSecrets = [
    fixture.tenantApi.token,
    ...Object.values(fixture.installations as Record<string, { apiKey: string; webhookSecret: string }>).flatMap(
      (installation) => [installation.apiKey, installation.webhookSecret],
    ),
    fixture.provider.apiKey,
    fixture.provider.webhookSecret,
  ];
  console.log(
    `fuzz: schemathesis seed ${SEED}, ${MAX_EXAMPLES} examples per operation and phase, gateway ${gateway.url}; ` +
      `to repeat a target: npm start, npm run demo:seed -- --webhook-url URL --out .demo/fixture.json, ` +
      `npm run fuzz:api -- --only TARGET --seed ${SEED} --max-examples ${MAX_EXAMPLES}`,
  );
}, 240_000);

afterAll(async () => {
  for (const child of children) killGroup(child);
  // SIGTERM, and SIGKILL for a process that has not exited after its stop timeout.
  const stop = (s: ServiceProcess) => s.stop().catch(() => void s.child.kill('SIGKILL'));
  await Promise.all([gateway, ...services].filter((s): s is ServiceProcess => s !== undefined).map(stop));
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('schemathesis against every OpenAPI document (scripts/fuzz/api.mjs)', () => {
  it.each(TARGETS)(
    '%s: no failure of any check',
    async (target) => {
      const started = Date.now();
      const { code, output } = await runScript(
        [
          SCRIPT,
          '--gateway',
          gateway!.url,
          '--fixture',
          fixtureFile,
          '--only',
          target,
          '--seed',
          String(SEED),
          '--max-examples',
          String(MAX_EXAMPLES),
          '--timeout-minutes',
          String(TARGET_TIMEOUT_MINUTES),
        ],
        TARGET_TEST_TIMEOUT_MS - 5_000,
      );
      const cases = /(\d+) generated/.exec(output)?.[1] ?? '?';
      console.log(
        `fuzz ${target}: exit ${code}, ${cases} test cases in ${Math.round((Date.now() - started) / 1000)} s (seed ${SEED})`,
      );
      // Schemathesis prints requests and answers of failures: never a key, token or secret.
      const leaked = knownSecrets.filter((secret) => output.includes(secret)).length;
      expect({ leaked, shapes: findSecrets(output) }).toEqual({ leaked: 0, shapes: [] });
      if (code !== 0) {
        throw new Error(
          `schemathesis found failures on target ${target} (exit ${code}); repeat with ` +
            `npm run fuzz:api -- --only ${target} --seed ${SEED} --max-examples ${MAX_EXAMPLES} (after npm start and the demo seed):\n\n${failureReport(output)}`,
        );
      }
    },
    TARGET_TEST_TIMEOUT_MS,
  );
});
