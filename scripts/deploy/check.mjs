#!/usr/bin/env node
// `npm run deploy:check`: the Helm chart (deploy/helm/marketplace) as a cluster would take it.
//
//   1. helm and kubeconform, pinned, from the Go module proxy into .tools/bin (./tools.mjs)
//   2. files/topics.json of the chart is schemas/topics.json (Helm reads only the chart's own files)
//   3. kubeconform refuses a broken Deployment (the validation is not vacuous); helm lint, then helm
//      template for each values variant and Kubernetes version, each output validated by
//      kubeconform against that version's schemas (strict: unknown fields fail)
//   4. bad values, each of which values.schema.json must refuse with a message naming the value
//
// Rendered manifests are kept in .tools/rendered/ for reading. One line per step at the end and a
// non-zero exit when any failed; CI (.ci/run) runs it beside lint.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BAD_VALUES, VARIANTS } from './cases.mjs';
import { ensureGoTools, ensureSchemas } from './tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tools = join(root, '.tools');
const chart = join(root, 'deploy/helm/marketplace');
/** The oldest Kubernetes the chart supports (Chart.yaml kubeVersion) and the newest with schemas. */
const KUBE_VERSIONS = ['1.29.0', '1.37.0'];
/** Custom resources: their CRDs' schemas are not in any registry package, so only Helm renders them. */
const CUSTOM_KINDS = ['ServiceMonitor', 'KafkaTopic'];

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

step('chart files/topics.json is schemas/topics.json', () => {
  const same =
    readFileSync(join(root, 'schemas/topics.json'), 'utf8') === readFileSync(join(chart, 'files/topics.json'), 'utf8');
  return same ? undefined : 'they differ: cp schemas/topics.json deploy/helm/marketplace/files/topics.json';
});

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

console.log('\n== deploy:check results');
for (const line of results) console.log(line);
process.exit(results.every((line) => line.startsWith('ok')) ? 0 : 1);
