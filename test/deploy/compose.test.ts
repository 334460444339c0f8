/**
 * There is no Docker engine on the development machine, so docker-compose.yml and
 * deploy/Dockerfile are kept correct by reading them: against each other, against the
 * service list and ports, and against the native stack (scripts/stack/kafka.sh).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const ROOT = resolve(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

// ---- the expected topology ---------------------------------------------------------------

/** The six services and their native default ports. */
const APP_SERVICES = (JSON.parse(read('scripts/services.json')) as { services: Record<string, number> }).services;
const APP_NAMES = Object.keys(APP_SERVICES);

const INFRA: Record<string, { image: RegExp; healthcheck: RegExp }> = {
  kafka: { image: /^apache\/kafka:4\.\d+\.\d+$/, healthcheck: /kafka-(broker-api-versions|topics|cluster)\.sh/ },
  'schema-registry': {
    image: /^(apicurio\/apicurio-registry|confluentinc\/cp-schema-registry):\S+$/,
    healthcheck: /\/health|\/subjects/,
  },
  mongodb: { image: /^mongo:7([.-]|$)/, healthcheck: /mongosh[\s\S]*ping/ },
  redis: { image: /^redis:7([.-]|$)/, healthcheck: /redis-cli[\s\S]*ping/ },
};
const INFRA_NAMES = Object.keys(INFRA);

const REQUIRED_ENV = ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'MONGO_URL', 'REDIS_URL', 'HOST', 'PORT'];
/** Variables holding addresses to bind to, not hosts to connect to. */
// Addresses a service binds to or advertises to browsers, not ones it connects to.
const BIND_ADDRESS_ENV = ['HOST', 'KAFKA_LISTENERS', 'PUBLIC_BASE_URL'];
/** Shared workspace packages that never run in production. */
const DEV_ONLY_SHARED = ['testing'];

// ---- docker-compose.yml -----------------------------------------------------------------

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, unknown> } | string;
  environment?: Record<string, unknown> | string[];
  ports?: Array<string | number | { target: number; published: number | string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  depends_on?: string[] | Record<string, { condition?: string }>;
}

// merge: true — the file uses YAML merge keys (<<: *anchor), which Compose supports.
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const services = compose.services;
const serviceNames = Object.keys(services);

function service(name: string): ComposeService {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
}

/** Environment as a map of strings, from either the map or the list form. */
function envOf(svc: ComposeService): Record<string, string> {
  const env = svc.environment ?? {};
  const entries = Array.isArray(env)
    ? env.map((item) => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)])
    : Object.entries(env).map(([key, value]) => [key, String(value)]);
  return Object.fromEntries(entries);
}

/** The healthcheck command as one string (without the CMD / CMD-SHELL marker). */
function healthcheckCommand(svc: ComposeService): string {
  const test = svc.healthcheck?.disable ? [] : (svc.healthcheck?.test ?? []);
  const argv = typeof test === 'string' ? [test] : test;
  if (argv[0] === 'NONE') return '';
  return argv.filter((arg) => arg !== 'CMD' && arg !== 'CMD-SHELL').join(' ');
}

function portMappings(svc: ComposeService): Array<{ published: number; target: number }> {
  return (svc.ports ?? []).map((port) => {
    if (typeof port === 'object') return { published: Number(port.published), target: Number(port.target) };
    const parts = String(port).split('/')[0]!.split(':'); // [ip:]published:target
    return { published: Number(parts.at(-2)), target: Number(parts.at(-1)) };
  });
}

function dependsOnCondition(svc: ComposeService, dependency: string): string | undefined {
  const deps = svc.depends_on ?? {};
  return Array.isArray(deps) ? undefined : deps[dependency]?.condition;
}

function buildOf(svc: ComposeService): { context: string; dockerfile: string; args: Record<string, string> } {
  const build = typeof svc.build === 'string' ? { context: svc.build } : (svc.build ?? {});
  const args = Object.fromEntries(Object.entries(build.args ?? {}).map(([key, value]) => [key, String(value)]));
  return { context: build.context ?? '', dockerfile: build.dockerfile ?? 'Dockerfile', args };
}

/** Host names in a value: URLs (scheme://host...), host:port lists and Kafka's id@host:port. */
function hostsIn(value: string): string[] {
  return value.split(',').flatMap((raw) => {
    const part = raw.trim().replace(/^\d+@/, '');
    if (part.includes('://')) {
      try {
        return [new URL(part).hostname];
      } catch {
        return [];
      }
    }
    const hostPort = /^([A-Za-z0-9.-]+):\d+$/.exec(part);
    return hostPort ? [hostPort[1]!] : [];
  });
}

/** Kafka listener list `NAME://host:port,...` as objects. */
function listeners(value: string | undefined): Array<{ name: string; host: string; port: number }> {
  return (value ?? '').split(',').map((item) => {
    const match = /^([A-Za-z0-9_]+):\/\/([^:]*):(\d+)$/.exec(item.trim());
    if (!match) throw new Error(`unparseable Kafka listener "${item}"`);
    return { name: match[1]!, host: match[2]!, port: Number(match[3]) };
  });
}

/** A version pinned by a native stack script, e.g. `KAFKA_VERSION=3.9.2` in scripts/stack/kafka.sh. */
function nativeVersion(script: string, variable: string): string {
  const line = read(`scripts/stack/${script}`)
    .split('\n')
    .find((l) => new RegExp(`^\\s*(export\\s+|readonly\\s+)?${variable}=`).test(l));
  const version = line && /\d+\.\d+\.\d+/.exec(line)?.[0];
  if (!version) throw new Error(`scripts/stack/${script} sets no ${variable}=x.y.z`);
  return version;
}

// ---- deploy/Dockerfile ------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** Logical instructions: comments dropped, backslash continuations joined. */
function instructionsOf(text: string): Instruction[] {
  const result: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = pending + line;
    pending = '';
    const space = full.search(/\s/);
    result.push({ keyword: full.slice(0, space).toUpperCase(), args: full.slice(space + 1).trim() });
  }
  return result;
}

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      stages.push({ base: words[0]!, name: words[2] ?? String(stages.length), instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

const dockerfile = read('deploy/Dockerfile');
const stages = stagesOf(instructionsOf(dockerfile));
const finalStage = stages.at(-1)!;
const stageByName = (name: string): Stage | undefined => stages.find((s) => s.name === name);
const instructionsIn = (stage: Stage, keyword: string): string[] =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

/** The stage and the stages it is built FROM. */
function lineage(stage: Stage): Stage[] {
  const parent = stageByName(stage.base);
  return parent && parent !== stage ? [stage, ...lineage(parent)] : [stage];
}

const npmInstalls = (stage: Stage): string[] =>
  instructionsIn(stage, 'RUN').filter((run) => /\bnpm\s+(ci|install|i)\b/.test(run));
const omitsDev = (run: string): boolean => /--omit[= ]dev\b|--production\b|--only[= ]prod/.test(run);
/** True when the stage (or one it is built from) installs devDependencies. */
const hasDevDependencies = (stage: Stage): boolean =>
  lineage(stage).some((s) => npmInstalls(s).some((run) => !omitsDev(run)));

/** COPY --from=<stage> instructions of a stage, as { from, sources, destination }. */
function copiesFromStages(stage: Stage): Array<{ from: string; sources: string[]; destination: string }> {
  return instructionsIn(stage, 'COPY').flatMap((args) => {
    const words = args.split(/\s+/);
    const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
    const paths = words.filter((w) => !w.startsWith('--'));
    return from ? [{ from, sources: paths.slice(0, -1), destination: paths.at(-1)! }] : [];
  });
}

/** KEY=value pairs of the ENV instructions of a stage. */
function envOfStage(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of instructionsIn(stage, 'ENV')) {
    for (const match of args.matchAll(/(\w+)=("[^"]*"|'[^']*'|\S+)/g))
      env[match[1]!] = match[2]!.replace(/^["']|["']$/g, '');
  }
  return env;
}

/** The final CMD as argv (exec form) or as one shell string. */
function finalCommand(): { execForm: boolean; argv: string[] } {
  const cmd = instructionsIn(finalStage, 'CMD').at(-1) ?? '';
  return cmd.startsWith('[') ? { execForm: true, argv: JSON.parse(cmd) as string[] } : { execForm: false, argv: [cmd] };
}

// ---- .dockerignore ------------------------------------------------------------------------

/** Docker's pattern semantics, reduced to what we use: * within a segment, ** across segments. */
function isIgnored(path: string, patterns: string[]): boolean {
  const toRegExp = (pattern: string): RegExp =>
    new RegExp(
      `^${pattern
        .replace(/^\/+/, '')
        .replace(/[.+^${}()|[\]]/g, '\\$&')
        .replace(/\*\*\//g, '\u0000')
        .replace(/\*/g, '[^/]*')
        // eslint-disable-next-line no-control-regex -- the NUL placeholder set two lines above
        .replace(/\u0000/g, '(?:.*/)?')}(?:/.*)?$`,
    );
  return patterns.some((pattern) => toRegExp(pattern).test(path));
}

// =========================================================================================

describe('compose: infrastructure services', () => {
  test.each(INFRA_NAMES)('%s uses the expected official image', (name) => {
    expect(service(name).image).toMatch(INFRA[name]!.image);
  });

  test.each(INFRA_NAMES)('%s has a healthcheck that really probes it', (name) => {
    expect(healthcheckCommand(service(name))).toMatch(INFRA[name]!.healthcheck);
  });

  test('Kafka runs the version pinned by the native stack (scripts/stack/kafka.sh)', () => {
    expect(service('kafka').image).toBe(`apache/kafka:${nativeVersion('kafka.sh', 'KAFKA_DEFAULT_VERSION')}`);
  });

  test('the schema registry is the Apicurio version of the native stack (scripts/stack/registry.sh)', () => {
    expect(service('schema-registry').image).toBe(
      `apicurio/apicurio-registry:${nativeVersion('registry.sh', 'REGISTRY_VERSION')}`,
    );
  });

  test('MongoDB keeps its data in a named volume', () => {
    const volumes = (service('mongodb') as { volumes?: string[] }).volumes ?? [];
    const named = Object.keys((compose as { volumes?: Record<string, unknown> }).volumes ?? {});
    expect(volumes.some((v) => named.includes(v.split(':')[0]!) && v.split(':')[1] === '/data/db')).toBe(true);
  });
});

describe('compose: application services', () => {
  test.each(APP_NAMES)('%s is built from deploy/Dockerfile with a matching SERVICE arg', (name) => {
    const build = buildOf(service(name));
    expect(resolve(ROOT, build.context)).toBe(ROOT);
    expect(build.dockerfile).toBe('deploy/Dockerfile');
    expect(build.args.SERVICE).toBe(name);
  });

  test.each(APP_NAMES)('%s publishes its port and listens on it (PORT)', (name) => {
    const mappings = portMappings(service(name));
    expect(mappings).toContainEqual({ published: APP_SERVICES[name], target: Number(envOf(service(name)).PORT) });
  });

  // Every service port carries an administrator API or an internal one (gateway-auth /api/admin/v1,
  // provider-delivery /admin/v1, webhook-sender /admin/v1/provider-callbacks; the others take only
  // the gateway's signed calls): published on the host's loopback only, never on every interface.
  test.each(APP_NAMES)('%s publishes its port on the loopback address only', (name) => {
    const ports = (service(name).ports ?? []).map(String);
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  test.each(APP_NAMES)('%s has the required environment, bound to all interfaces', (name) => {
    const env = envOf(service(name));
    for (const variable of REQUIRED_ENV)
      expect({ variable, set: (env[variable] ?? '') !== '' }).toEqual({ variable, set: true });
    expect(env.HOST).toBe('0.0.0.0');
  });

  test.each(APP_NAMES)('%s passes only build args the Dockerfile declares, consistent with its environment', (name) => {
    const declared = instructionsIn(finalStage, 'ARG').map((arg) => arg.split('=')[0]);
    const { args } = buildOf(service(name));
    expect(Object.keys(args).filter((arg) => !declared.includes(arg))).toEqual([]);
    if (args.PORT !== undefined) expect(args.PORT).toBe(envOf(service(name)).PORT);
  });

  test.each(APP_NAMES)('%s has a node-fetch healthcheck on /readyz or /healthz at its port', (name) => {
    const command = healthcheckCommand(service(name));
    expect(command).toMatch(/\bfetch\(/); // node:*-slim has no curl or wget
    expect(command).toMatch(/\/(readyz|healthz)\b/);
    const literalPort = /:\/\/[^/:'"\s]+:(\d+)\//.exec(command)?.[1];
    const port = literalPort ?? (/process\.env\.PORT\b/.test(command) ? envOf(service(name)).PORT : undefined);
    expect(Number(port)).toBe(portMappings(service(name))[0]?.target);
  });

  test.each(APP_NAMES)('%s waits for every infrastructure service to be healthy', (name) => {
    const conditions = Object.fromEntries(
      INFRA_NAMES.map((infra) => [infra, dependsOnCondition(service(name), infra)]),
    );
    expect(conditions).toEqual(Object.fromEntries(INFRA_NAMES.map((infra) => [infra, 'service_healthy'])));
  });
});

describe('compose: host names in environment values', () => {
  test.each(serviceNames)('every host that %s connects to is a compose service', (name) => {
    const env = envOf(service(name));
    const hosts = Object.entries(env)
      .filter(([key]) => !BIND_ADDRESS_ENV.includes(key))
      .flatMap(([, value]) => hostsIn(value));
    expect(hosts.filter((host) => !serviceNames.includes(host))).toEqual([]);
  });

  test.each(APP_NAMES)('%s reaches all four infrastructure services by name', (name) => {
    const hosts = new Set(Object.values(envOf(service(name))).flatMap(hostsIn));
    expect(INFRA_NAMES.filter((infra) => !hosts.has(infra))).toEqual([]);
  });
});

describe('compose: Kafka (KRaft, single node)', () => {
  const kafkaEnv = envOf(service('kafka'));

  test('is a combined broker + controller voting for itself', () => {
    expect(
      kafkaEnv.KAFKA_PROCESS_ROLES?.split(',')
        .map((r) => r.trim())
        .sort(),
    ).toEqual(['broker', 'controller']);
    const controllerPorts = listeners(kafkaEnv.KAFKA_LISTENERS)
      .filter((l) => kafkaEnv.KAFKA_CONTROLLER_LISTENER_NAMES?.split(',').includes(l.name))
      .map((l) => l.port);
    const [id, hostPort] = (kafkaEnv.KAFKA_CONTROLLER_QUORUM_VOTERS ?? '').split('@');
    expect(id).toBe(kafkaEnv.KAFKA_NODE_ID);
    expect(hostPort?.split(':')[0]).toBe('kafka');
    expect(controllerPorts).toContain(Number(hostPort?.split(':')[1]));
  });

  test('every listener has a security protocol and CLUSTER_ID is set', () => {
    const mapped = (kafkaEnv.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP ?? '').split(',').map((entry) => entry.split(':')[0]);
    const names = [...listeners(kafkaEnv.KAFKA_LISTENERS), ...listeners(kafkaEnv.KAFKA_ADVERTISED_LISTENERS)].map(
      (l) => l.name,
    );
    expect(names.filter((n) => !mapped.includes(n))).toEqual([]);
    expect(kafkaEnv.CLUSTER_ID).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  test('advertises listeners on a compose service name', () => {
    const advertised = listeners(kafkaEnv.KAFKA_ADVERTISED_LISTENERS);
    expect(advertised.length).toBeGreaterThan(0);
    expect(advertised.filter((l) => !serviceNames.includes(l.host))).toEqual([]);
  });

  test.each(APP_NAMES)('KAFKA_BROKERS of %s are advertised listeners', (name) => {
    const advertised = listeners(kafkaEnv.KAFKA_ADVERTISED_LISTENERS).map((l) => `${l.host}:${l.port}`);
    const brokers = (envOf(service(name)).KAFKA_BROKERS ?? '').split(',').map((b) => b.trim());
    expect(brokers.filter((b) => !advertised.includes(b))).toEqual([]);
  });

  test('does not auto-create topics and replicates everything once', () => {
    expect(kafkaEnv.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    for (const variable of Object.keys(kafkaEnv).filter((k) =>
      /REPLICATION_FACTOR$|MIN_ISR$|MIN_INSYNC_REPLICAS$/.test(k),
    )) {
      expect({ variable, value: kafkaEnv[variable] }).toEqual({ variable, value: '1' });
    }
    expect(kafkaEnv.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR).toBe('1');
  });
});

describe('compose: schema registry', () => {
  test.each(APP_NAMES)('SCHEMA_REGISTRY_URL of %s is the Confluent-compatible API of the registry image', (name) => {
    const url = new URL(envOf(service(name)).SCHEMA_REGISTRY_URL ?? '');
    const apicurio = service('schema-registry').image?.startsWith('apicurio/') ?? false;
    expect(url.hostname).toBe('schema-registry');
    expect({ port: url.port, path: url.pathname.replace(/\/$/, '') }).toEqual(
      apicurio ? { port: '8080', path: '/apis/ccompat/v7' } : { port: '8081', path: '' },
    );
  });
});

describe('Dockerfile', () => {
  test('is a multi-stage build on the Node major of .nvmrc', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const nodeMajor = read('.nvmrc').trim().replace(/^v/, '').split('.')[0];
    const external = stages.map((s) => s.base).filter((base) => !stageByName(base));
    expect(external.filter((base) => !base.startsWith(`node:${nodeMajor}-`))).toEqual([]);
  });

  test('runs the final stage as a non-root user', () => {
    expect(instructionsIn(finalStage, 'USER').at(-1)).toMatch(/^(?!root\b|0\b)\S+/);
  });

  test('sets production mode and binds to all interfaces', () => {
    expect(envOfStage(finalStage)).toEqual(expect.objectContaining({ NODE_ENV: 'production', HOST: '0.0.0.0' }));
    expect(instructionsIn(finalStage, 'EXPOSE').length).toBeGreaterThan(0);
  });

  test('has a HEALTHCHECK on /healthz using node (no curl in the slim image)', () => {
    const healthcheck = instructionsIn(finalStage, 'HEALTHCHECK').at(-1) ?? '';
    expect(healthcheck).toMatch(/\bnode\b[\s\S]*fetch\([\s\S]*\/healthz/);
    expect(healthcheck).not.toMatch(/\b(curl|wget)\b/);
  });

  test('never brings devDependencies into the final stage', () => {
    expect(hasDevDependencies(finalStage)).toBe(false);
    const copies = copiesFromStages(finalStage);
    // from a stage with devDependencies, only compiled output and schemas may be copied
    const leaks = copies
      .filter((c) => hasDevDependencies(stageByName(c.from)!))
      .flatMap((c) => c.sources)
      .filter((source) => !/\/(dist|schemas)\/?$/.test(source));
    expect(leaks).toEqual([]);
    // node_modules come from a production-only install
    const prodStages = copies.map((c) => stageByName(c.from)!).filter((s) => npmInstalls(s).some(omitsDev));
    expect(prodStages.filter((s) => !hasDevDependencies(s)).length).toBeGreaterThan(0);
  });

  test('copies the dist of every runtime shared package, the selected service and schemas/', () => {
    const sources = copiesFromStages(finalStage).flatMap((c) => c.sources);
    const shared = readdirSync(join(ROOT, 'shared')).filter((pkg) =>
      existsSync(join(ROOT, 'shared', pkg, 'package.json')),
    );
    const expected = [
      ...shared.filter((pkg) => !DEV_ONLY_SHARED.includes(pkg)).map((pkg) => `shared/${pkg}/dist`),
      'services/${SERVICE}/dist',
      'schemas',
    ];
    expect(expected.filter((path) => !sources.some((source) => source.replace(/\/$/, '').endsWith(path)))).toEqual([]);
    const devOnly = DEV_ONLY_SHARED.map((pkg) => `shared/${pkg}/`);
    expect(sources.filter((source) => devOnly.some((path) => source.includes(path)))).toEqual([]);
  });

  test('starts services/$SERVICE/dist/main.js with SERVICE kept as a runtime ENV', () => {
    expect(envOfStage(finalStage).SERVICE).toBe('${SERVICE}');
    const { execForm, argv } = finalCommand();
    const script =
      execForm && /(^|\/)(ba)?sh$/.test(argv[0] ?? '') && argv[1] === '-c' ? (argv[2] ?? '') : argv.join(' ');
    expect(script).toMatch(/\bnode\s+"?services\/\$\{?SERVICE\}?\/dist\/main\.js/);
    // exec form passes its arguments verbatim: a "$" only works when a shell runs the command
    if (execForm && script === argv.join(' ')) expect(script).not.toContain('$');
  });
});

describe('.dockerignore', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

  test.each([
    'node_modules/kafkajs/package.json',
    'shared/tracing/node_modules/x/index.js',
    'services/catalog/dist/main.js',
    'shared/config/tsconfig.tsbuildinfo',
    '.git/HEAD',
    '.stack/kafka/meta.properties',
    '.test-results/unit.xml',
    '.tools/bin/helm', // deploy:check's tools
  ])('keeps %s out of the build context', (path) => {
    expect(isIgnored(path, patterns)).toBe(true);
  });

  test.each(['package-lock.json', 'tsconfig.base.json', 'schemas/topics.json', 'services/catalog/src/main.ts'])(
    'sends %s to the build',
    (path) => {
      expect(isIgnored(path, patterns)).toBe(false);
    },
  );
});
