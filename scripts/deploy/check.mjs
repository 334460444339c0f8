#!/usr/bin/env node
// `npm run deploy:check`: the Helm chart (deploy/helm/marketplace) as a cluster would take it.
//
//   1. helm and kubeconform, pinned, from the Go module proxy into .tools/bin (./tools.mjs)
//   2. the chart's files/ are copies of schemas/topics.json and deploy/observability's alerts.yaml
//      and dashboard.json (Helm reads only the chart's own files; ./chart-files.mjs copies them)
//   3. kubeconform refuses a broken Deployment (the validation is not vacuous); helm lint, then helm
//      template for each values variant and Kubernetes version, each output validated by
//      kubeconform against that version's schemas (strict: unknown fields fail)
//   4. per variant, what kubeconform cannot judge: the PrometheusRule carries every alert of
//      alerts.yaml and the dashboard ConfigMap the dashboard, each only when switched on; the
//      `helm test` Pod calls every Service and every NetworkPolicy lets it; NOTES.txt names
//      only Services, ports and objects the chart renders
//   5. bad values, each of which values.schema.json must refuse with a message naming the value
//
// Rendered manifests are kept in .tools/rendered/ for reading. One line per step at the end and a
// non-zero exit when any failed; CI (.ci/run) runs it beside lint.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { BAD_VALUES, VARIANTS } from './cases.mjs';
import { CHART_COPIES, staleCopies } from './chart-files.mjs';
import { ensureGoTools, ensureSchemas } from './tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tools = join(root, '.tools');
const chart = join(root, 'deploy/helm/marketplace');
/** The oldest Kubernetes the chart supports (Chart.yaml kubeVersion) and the newest with schemas. */
const KUBE_VERSIONS = ['1.29.0', '1.37.0'];
/**
 * Custom resources: their CRDs' schemas are not in any registry package, so only Helm renders them
 * (the PrometheusRule's content is compared with alerts.yaml below).
 */
const CUSTOM_KINDS = ['ServiceMonitor', 'KafkaTopic', 'PrometheusRule'];

const results = [];
function step(name, action) {
  const started = Date.now();
  let problem;
  try {
    problem = action();
  } catch (error) {
    problem = error.message;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push(`${problem ? 'FAIL' : 'ok  '} ${name} (${seconds} s)${problem ? `: ${problem.split('\n')[0]}` : ''}`);
  if (problem) console.error(`\n${name}:\n${problem}`);
  return !problem;
}

// bounded: a hung tool must not hold CI
const exec = (command, args) =>
  spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 120_000,
    killSignal: 'SIGKILL',
  });
const failure = (r) => `exit ${r.status ?? r.signal}\n${(r.stderr || r.stdout || r.error?.message || '').trim()}`;

let bin;
const toolsReady = step('tools: helm, kubeconform, Kubernetes schemas', () => {
  bin = ensureGoTools(tools);
  for (const version of KUBE_VERSIONS) ensureSchemas(tools, version);
});

const stale = staleCopies();
for (const [copy, source] of Object.entries(CHART_COPIES)) {
  step(`chart ${copy.replace('deploy/helm/marketplace/', '')} is ${source}`, () =>
    stale.includes(copy) ? 'they differ: node scripts/deploy/chart-files.mjs copies it' : undefined,
  );
}

/** Sources of the chart's copies, parsed. */
const alertsFile = () =>
  parse(readFileSync(join(root, CHART_COPIES['deploy/helm/marketplace/files/alerts.yaml']), 'utf8'));
const dashboardFile = () =>
  JSON.parse(readFileSync(join(root, CHART_COPIES['deploy/helm/marketplace/files/dashboard.json']), 'utf8'));
const isSubset = (small = {}, big = {}) => Object.entries(small).every(([k, v]) => big[k] === v);
/** Equal as data: maps in any key order (helm's toYaml sorts them), undefined fields as absent. */
const canonical = (v) =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical(v[k])]),
        )
      : v;
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** kubeconform on one file against the local schemas of a Kubernetes version. */
const kubeconform = (kube, file) =>
  exec(bin.kubeconform, [
    ...['-strict', '-summary', '-kubernetes-version', kube, '-skip', CUSTOM_KINDS.join(',')],
    ...[
      '-schema-location',
      `${tools}/kubernetes-json-schema/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`,
    ],
    file,
  ]);

if (toolsReady) {
  mkdirSync(join(tools, 'rendered'), { recursive: true });
  // A validator that passes everything would pass the chart too: first show it refuses a typo.
  step('kubeconform refuses a Deployment with an unknown field', () => {
    const file = join(tools, 'rendered', 'canary.yaml');
    writeFileSync(file, 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: canary }\nspec: { replica: 1 }\n');
    const v = kubeconform(KUBE_VERSIONS[0], file);
    return v.status !== 0 && /replica/.test(v.stdout) ? undefined : `it did not:\n${v.stdout}${v.stderr}`;
  });
  for (const variant of VARIANTS) {
    let rendered;
    step(`helm lint --strict: ${variant.name}`, () => {
      const r = exec(bin.helm, ['lint', chart, '--strict', ...variant.args]);
      return r.status === 0 ? undefined : failure(r);
    });
    for (const kube of KUBE_VERSIONS) {
      step(`helm template + kubeconform ${kube}: ${variant.name}`, () => {
        const r = exec(bin.helm, ['template', 'marketplace', chart, '--kube-version', kube, ...variant.args]);
        if (r.status !== 0) return failure(r);
        const file = join(tools, 'rendered', `${variant.name}-${kube}.yaml`);
        writeFileSync(file, r.stdout);
        const v = kubeconform(kube, file);
        if (v.status !== 0) return failure(v);
        console.log(`${variant.name} ${kube}: ${v.stdout.trim()}`);
        rendered ??= r.stdout;
      });
    }
    if (rendered) {
      const objects = parseAllDocuments(rendered)
        .map((d) => d.toJS())
        .filter(Boolean);
      step(`PrometheusRule, dashboard, helm test as switched on: ${variant.name}`, () =>
        optionalPartProblems(objects, variant.on).join('\n'),
      );
      step(`NOTES.txt names what the chart renders: ${variant.name}`, () => {
        const r = exec(bin.helm, ['install', 'marketplace', chart, '--dry-run=client', ...variant.args]);
        if (r.status !== 0) return failure(r);
        const notes = r.stdout.slice(r.stdout.indexOf('\nNOTES:\n') + 1);
        if (!notes.startsWith('NOTES:')) return 'helm install --dry-run printed no NOTES';
        return notesProblems(notes, objects).join('\n');
      });
    }
  }
  for (const bad of BAD_VALUES) {
    step(`refused: ${bad.name}`, () => {
      const r = exec(bin.helm, ['template', 'marketplace', chart, ...bad.args]);
      if (r.status === 0) return 'helm template accepted it';
      if (!bad.expect.test(r.stderr)) return `refused without the expected message ${bad.expect}:\n${r.stderr.trim()}`;
      // the lines that say what was refused: the schema's (at '/path': ...) or a template's fail
      const said = r.stderr
        .split('\n')
        .filter((line) => /at '\/|execution error/.test(line) && !/'allOf' failed/.test(line));
      console.log(`${bad.name}: ${said.map((line) => line.trim()).join(' | ')}`);
    });
  }
}

/**
 * The optional objects of a rendered variant against `on` (cases.mjs): each rendered exactly when
 * switched on, and then carrying what it should.
 */
function optionalPartProblems(objects, on) {
  const problems = [];
  const component = (kind, name) =>
    objects.filter((o) => o.kind === kind && o.metadata?.labels?.['app.kubernetes.io/component'] === name);
  const expectCount = (part, found, what) => {
    const want = on.includes(part) ? 1 : 0;
    if (found.length !== want) problems.push(`${found.length} ${what} rendered, expected ${want} (${part})`);
    return found[0];
  };

  const rule = expectCount('prometheusRule', component('PrometheusRule', 'alerts'), 'PrometheusRule');
  if (rule) {
    const source = alertsFile().groups.flatMap((g) => g.rules.map((r) => ({ group: g.name, ...r })));
    const rendered = (rule.spec?.groups ?? []).flatMap((g) => (g.rules ?? []).map((r) => ({ group: g.name, ...r })));
    if (rendered.length === 0) problems.push('the PrometheusRule has no rules');
    const byName = new Map(rendered.map((r) => [r.alert, r]));
    for (const want of source) {
      const got = byName.get(want.alert);
      if (!got) {
        problems.push(`the PrometheusRule lacks the alert ${want.alert} of alerts.yaml`);
        continue;
      }
      const url = got.annotations?.runbook_url;
      const wantUrl = want.annotations?.runbook_url;
      const urlOk = url === wantUrl || (/^https?:\/\/\S+[^/]\/docs\//.test(url ?? '') && url.endsWith(`/${wantUrl}`));
      if (!urlOk) problems.push(`${want.alert}: runbook_url ${url} is not alerts.yaml's ${wantUrl}, prefixed or not`);
      const strip = (r) => ({ ...r, annotations: { ...r.annotations, runbook_url: undefined } });
      if (!same(strip(got), strip(want))) problems.push(`${want.alert}: differs from alerts.yaml beyond runbook_url`);
    }
    if (rendered.length !== source.length)
      problems.push(`${rendered.length} rules rendered, ${source.length} in alerts.yaml`);
  }

  const dashboard = expectCount('grafanaDashboard', component('ConfigMap', 'dashboard'), 'dashboard ConfigMap');
  if (dashboard) {
    const values = Object.values(dashboard.data ?? {});
    if (values.length !== 1 || !same(JSON.parse(values[0]), dashboardFile()))
      problems.push('the dashboard ConfigMap does not hold dashboard.json, and only it');
  }

  const test = expectCount(
    'tests',
    component('Pod', 'tests').filter((p) => p.metadata.annotations?.['helm.sh/hook'] === 'test'),
    'helm test Pod',
  );
  if (test) problems.push(...testPodProblems(objects, test));
  return problems;
}

/** The test Pod calls each Service's /readyz on its port, and the NetworkPolicies let it. */
function testPodProblems(objects, pod) {
  const problems = [];
  const services = objects.filter((o) => o.kind === 'Service');
  const targets = (pod.spec.containers[0].env.find((e) => e.name === 'TARGETS')?.value ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const expected = services.map(
    (s) =>
      `${s.metadata.labels['app.kubernetes.io/component']}=http://${s.metadata.name}:${s.spec.ports[0].port}/readyz`,
  );
  if (!same([...targets].sort(), [...expected].sort()))
    problems.push(`the test Pod calls ${targets.join(' ')}; the Services are ${expected.join(' ')}`);
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const selects = (policy, labels) => isSubset(policy.spec.podSelector.matchLabels, labels);
  const allows = (rules, peerLabels, port) =>
    (rules ?? []).some(
      (rule) =>
        (rule.ports ?? []).some((p) => p.port === port) &&
        (rule.from ?? rule.to ?? []).some(
          (peer) => !peer.namespaceSelector && peer.podSelector && isSubset(peer.podSelector.matchLabels, peerLabels),
        ),
    );
  const podLabels = pod.metadata.labels;
  for (const service of services) {
    const port = service.spec.ports[0].port;
    const onService = policies.filter((p) => selects(p, service.spec.selector));
    if (onService.length && !onService.some((p) => allows(p.spec.ingress, podLabels, port)))
      problems.push(`no NetworkPolicy of ${service.metadata.name} admits the test Pod on ${port}`);
    const onPod = policies.filter((p) => selects(p, podLabels));
    if (onPod.length && !onPod.some((p) => allows(p.spec.egress, service.spec.selector, port)))
      problems.push(`the test Pod's NetworkPolicy does not let it reach ${service.metadata.name}:${port}`);
  }
  const context = pod.spec.containers[0].securityContext ?? {};
  const hardened =
    pod.spec.automountServiceAccountToken === false &&
    pod.spec.securityContext?.runAsNonRoot === true &&
    pod.spec.securityContext?.seccompProfile?.type === 'RuntimeDefault' &&
    context.readOnlyRootFilesystem === true &&
    context.allowPrivilegeEscalation === false &&
    same(context.capabilities?.drop, ['ALL']);
  if (!hardened) problems.push('the test Pod is not hardened like the services');
  return problems;
}

/** Every Service (with its port) and object NOTES.txt names is one the chart rendered. */
function notesProblems(notes, objects) {
  const problems = [];
  const named = (kind, name) => objects.some((o) => o.kind === kind && o.metadata.name === name);
  const forwards = [...notes.matchAll(/port-forward svc\/(\S+) (\d+):(\d+)/g)];
  if (forwards.length === 0 && !/APIs?\b[^:\n]*: https:\/\//.test(notes))
    problems.push('NOTES.txt says no way to reach the release');
  for (const [, name, , port] of forwards) {
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === name);
    if (!service) problems.push(`NOTES.txt forwards to svc/${name}, which the chart does not render`);
    else if (service.spec.ports[0].port !== Number(port))
      problems.push(`NOTES.txt forwards to svc/${name} port ${port}; its port is ${service.spec.ports[0].port}`);
  }
  for (const [pattern, kind] of [
    [/logs (\S+) says/, 'Pod'],
    [/PrometheusRule: +on, (\S+?)[\s,]/, 'PrometheusRule'],
    [/ConfigMap (\S+) in namespace/, 'ConfigMap'],
  ]) {
    const name = pattern.exec(notes)?.[1];
    if (name && !named(kind, name))
      problems.push(`NOTES.txt names the ${kind} ${name}, which the chart does not render`);
  }
  for (const host of [...notes.matchAll(/APIs?\b[^:\n]*: https:\/\/([a-z0-9.-]+)/g)].map((m) => m[1]))
    if (!objects.some((o) => o.kind === 'Ingress' && o.spec.rules.some((r) => r.host === host)))
      problems.push(`NOTES.txt names the host ${host}, which no Ingress serves`);
  return problems;
}

console.log('\n== deploy:check results');
for (const line of results) console.log(line);
process.exit(results.every((line) => line.startsWith('ok')) ? 0 : 1);
