/**
 * The Helm chart against docker-compose.yml and the services' own settings, without helm (npm run
 * deploy:check renders and validates it with helm and kubeconform): the same services and ports,
 * every setting a service requires, no variable a service does not read, the same probes. The
 * comparison is also run on copies of the chart with a setting removed, to prove it notices.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import {
  CHART_DIR,
  chartEnvironment,
  chartProblems,
  loadChart,
  PUBLIC_INGRESS,
  serviceValues,
  type Chart,
} from './chart-model';
import { settingsIn, type SettingInfo } from './settings';

const ROOT = resolve(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

const PORTS = (JSON.parse(read('scripts/services.json')) as { services: Record<string, number> }).services;
const SERVICES = Object.keys(PORTS);
const VALUES_FILES: Array<[string, string | undefined]> = [
  ['values.yaml', undefined],
  ['values-production.yaml', 'deploy/helm/values-production.yaml'],
];

// The platform settings, with the connection settings platform-config.ts spreads into them.
const platform = [
  'shared/runtime/src/platform-config.ts',
  'shared/events/src/connection.ts',
  'shared/events/src/registry-connection.ts',
  'shared/redis/src/connection.ts',
]
  .map((file) => settingsIn(ROOT, file))
  .reduce((all, one) => ({
    settings: [...all.settings, ...one.settings],
    unplaced: [...all.unplaced, ...one.unplaced],
  }));
const own = Object.fromEntries(SERVICES.map((s) => [s, settingsIn(ROOT, `services/${s}/src/config.ts`)]));
const settingsOf: Record<string, SettingInfo[]> = Object.fromEntries(
  SERVICES.map((s) => [s, [...platform.settings, ...own[s]!.settings]]),
);

type ComposeService = { environment?: Record<string, unknown>; healthcheck?: { test?: string[] } };
const compose = (parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> })
  .services;
const template = (name: string) => read(`${CHART_DIR}/templates/${name}`);

describe('settings read from the services', () => {
  test.each(['platform', ...SERVICES])(
    'every upper-case name in %s config is a setting the parser understood',
    (name) => {
      const found = name === 'platform' ? platform : own[name]!;
      expect(found.unplaced).toEqual([]);
      expect(found.settings.length).toBeGreaterThan(0);
    },
  );
});

describe.each(VALUES_FILES)('chart with %s', (_label, valuesFile) => {
  const chart = loadChart(ROOT, valuesFile);

  test('has the six services of scripts/services.json and docker-compose.yml, on the same ports', () => {
    expect(Object.keys(chart.values.services).sort()).toEqual([...SERVICES].sort());
    for (const service of SERVICES) {
      const port = serviceValues(chart, service).port as number;
      expect({ service, port }).toEqual({ service, port: PORTS[service] });
      expect({ service, port: String(port) }).toEqual({ service, port: String(compose[service]?.environment?.PORT) });
    }
  });

  test('gives every service each setting it requires, and nothing it does not read', () => {
    expect(chartProblems(chart, settingsOf)).toEqual([]);
  });

  // Two differences on purpose: compose gives INTERNAL_IDENTITY_PUBLIC_KEY to all six through one
  // anchor, but gateway-auth and provider-delivery do not read it (the chart gives each service only
  // what it reads); and without an ingress the chart leaves PUBLIC_BASE_URL to the service's default
  // http://127.0.0.1:<port>, what `kubectl port-forward` serves, as compose's http://localhost:<port>.
  test.each(SERVICES)('sets every variable docker-compose.yml sets for %s that it reads', (service) => {
    const { plain, secret } = chartEnvironment(chart, service);
    const reads = new Set(settingsOf[service]!.map((s) => s.variable));
    const isPublic = chart.values.ingress[PUBLIC_INGRESS[service] ?? '']?.enabled === true;
    const missing = Object.keys(compose[service]?.environment ?? {}).filter(
      (v) => reads.has(v) && !plain.has(v) && !secret.has(v) && (v !== 'PUBLIC_BASE_URL' || isPublic),
    );
    expect(missing).toEqual([]);
  });

  test('wires each URL setting that defaults to another service to that service (who calls whom)', () => {
    const byPort = Object.fromEntries(Object.entries(PORTS).map(([service, port]) => [String(port), service]));
    for (const service of SERVICES) {
      const expected: Record<string, string> = {};
      for (const s of settingsOf[service]!) {
        const port = /^'https?:\/\/127\.0\.0\.1:(\d+)'$/.exec(s.defaultText ?? '')?.[1];
        const target = port && byPort[port];
        if (target && target !== service) expected[s.variable] = target;
      }
      expect({ service, serviceUrls: serviceValues(chart, service).serviceUrls ?? {} }).toEqual({
        service,
        serviceUrls: expected,
      });
    }
  });

  test('values.schema.json demands the secrets each service cannot start without', () => {
    const required = schemaRequiredSecrets();
    for (const service of SERVICES) {
      const own = Object.keys(serviceValues(chart, service).secretEnv ?? {});
      const needed = settingsOf[service]!.filter((s) => s.required && own.includes(s.variable)).map((s) => s.variable);
      expect({ service, required: required[service]?.sort() }).toEqual({ service, required: needed.sort() });
    }
  });
});

describe('the comparison notices a removed setting', () => {
  const chart = loadChart(ROOT, 'deploy/helm/values-production.yaml');
  const copy = (): Chart => structuredClone(chart);

  test('a secret removed from a service', () => {
    const broken = copy();
    delete broken.values.services['gateway-auth'].secretEnv.API_KEY_HASH_SECRET;
    expect(chartProblems(broken, settingsOf)).toEqual([
      'gateway-auth: API_KEY_HASH_SECRET is required by the service and not set by the chart',
    ]);
  });

  test('a platform setting removed from every service', () => {
    const broken = copy();
    delete broken.values.env.KAFKA_BROKERS;
    expect(chartProblems(broken, settingsOf)).toEqual(
      SERVICES.map((s) => `${s}: KAFKA_BROKERS is required by the service and not set by the chart`),
    );
  });

  test('a setting the template derives (HOST) removed from the template', () => {
    const broken = copy();
    broken.helpers = broken.helpers.replace('set $data "HOST"', 'set $data "HOSTNAME"');
    expect(chartProblems(broken, settingsOf)).toEqual(
      SERVICES.map((s) => `${s}: HOST is set to a loopback default by the service and not set by the chart`),
    );
  });

  test('an internal URL left to its loopback default', () => {
    const broken = copy();
    delete broken.values.services['gateway-auth'].serviceUrls.CATALOG_URL;
    expect(chartProblems(broken, settingsOf)).toEqual([
      'gateway-auth: CATALOG_URL is set to a loopback default by the service and not set by the chart',
    ]);
  });

  test('a misspelt variable, and a secret put among the plain settings', () => {
    const broken = copy();
    broken.values.services.catalog.env = { MENU_CACHE_TENANT: '64' };
    broken.values.env.API_KEY_HASH_SECRET = 'x';
    expect(chartProblems(broken, settingsOf)).toEqual(
      expect.arrayContaining([
        'catalog: the chart sets MENU_CACHE_TENANT, which the service does not read',
        'gateway-auth: API_KEY_HASH_SECRET is a secret, in a ConfigMap',
      ]),
    );
  });
});

describe('chart templates', () => {
  const deployment = template('deployment.yaml');
  const probes = Object.fromEntries(
    [...deployment.matchAll(/(\w+Probe):\s*\n\s*httpGet: \{ path: (\S+), port: http \}/g)].map((m) => [m[1], m[2]]),
  );

  test('probe /readyz for readiness (as docker-compose.yml does) and /healthz for liveness and start-up', () => {
    expect(probes).toEqual({ startupProbe: '/healthz', livenessProbe: '/healthz', readinessProbe: '/readyz' });
    for (const service of SERVICES) expect(compose[service]?.healthcheck?.test?.join(' ')).toMatch(/\/readyz/);
  });

  test('listen on the port the Service targets, named http', () => {
    expect(deployment).toMatch(/- name: http\s+containerPort: \{\{ \$svc\.port \}\}/);
    expect(template('service.yaml')).toMatch(/port: \{\{ \$svc\.port \}\}\s+targetPort: http/);
  });

  test('harden every pod: non-root, read-only root, no capabilities, RuntimeDefault seccomp', () => {
    const helpers = read(`${CHART_DIR}/templates/_helpers.tpl`);
    for (const line of [
      'allowPrivilegeEscalation: false',
      'readOnlyRootFilesystem: true',
      'drop: [ALL]',
      'type: RuntimeDefault',
    ])
      expect(helpers).toContain(line);
    for (const file of ['deployment.yaml', 'topics-job.yaml']) {
      expect(template(file)).toContain('include "marketplace.containerSecurityContext"');
      expect(template(file)).toContain('include "marketplace.podSecurityContext"');
    }
  });

  test("run as the image's user: USER node of the Node.js image is uid 1000", () => {
    const user = /^USER\s+(\S+)/m.exec(read('deploy/Dockerfile'))?.[1]?.split(':')[0];
    const uid = user === 'node' ? 1000 : Number(user);
    expect(loadChart(ROOT).values.runAsUser).toBe(uid);
  });

  test('compute grace and start-up from the platform defaults of SHUTDOWN_TIMEOUT_MS and STARTUP_TIMEOUT_MS', () => {
    const helpers = read(`${CHART_DIR}/templates/_helpers.tpl`);
    for (const variable of ['SHUTDOWN_TIMEOUT_MS', 'STARTUP_TIMEOUT_MS']) {
      const fallback = platform.settings.find((s) => s.variable === variable)?.defaultText?.replace(/_/g, '');
      expect(helpers).toContain(`(default "${fallback}" .root.Values.env.${variable})`);
    }
    expect(deployment).toContain('terminationGracePeriodSeconds: {{ include "marketplace.terminationGrace" $ctx }}');
  });

  test('make the services behind an ingress public, and derive NetworkPolicies from serviceUrls', () => {
    for (const [service, key] of Object.entries(PUBLIC_INGRESS))
      expect(read(`${CHART_DIR}/templates/_helpers.tpl`)).toContain(`"${service}" "${key}"`);
    expect(template('networkpolicy.yaml')).toMatch(/\$c\.serviceUrls/);
  });

  test('create the topics of schemas/topics.json (an equal copy) with the Kafka image of docker-compose.yml', () => {
    expect(read(`${CHART_DIR}/files/topics.json`)).toBe(read('schemas/topics.json'));
    const kafka = (compose as Record<string, { image?: string }>).kafka?.image;
    expect(loadChart(ROOT).values.topics.job.image).toBe(kafka);
  });
});

/** Per service, the secretEnv variables values.schema.json requires (following $ref and allOf). */
function schemaRequiredSecrets(): Record<string, string[]> {
  const schema = JSON.parse(read(`${CHART_DIR}/values.schema.json`));
  const resolveNode = (node: any): any[] => {
    if (node.$ref)
      return resolveNode(
        node.$ref
          .split('/')
          .slice(1)
          .reduce((n: any, k: string) => n[k], schema),
      );
    return [node, ...(node.allOf ?? []).flatMap(resolveNode)];
  };
  return Object.fromEntries(
    SERVICES.map((service) => [
      service,
      resolveNode(schema.properties.services.properties[service]).flatMap(
        (n) => n.properties?.secretEnv?.required ?? [],
      ),
    ]),
  );
}
