#!/usr/bin/env node
// `npm test`: installs the npm dependencies when they are missing or stale, builds (services run
// from dist in the process-level tests), starts the local stack when it is not running, runs the
// disruptive tests alone (they stop and restart stack components), then unit and integration tests,
// then the API fuzzing (Schemathesis, test/fuzz), then the audit of what the run left behind (no secret
// in any service log, metrics scrape or error body), and ends with one line: `N passed, N failed`.
//
//   npm test                      everything
//   npm test -- --unit            unit tests only, no stack
//   npm test -- shared/events     only tests whose path matches (passed on to jest)
//
// TEST_INFRA picks the stack (shared/testing/src/infra.ts): `native` (the default, and what CI
// runs) is the local stack of scripts/stack/; `testcontainers`, where a Docker engine exists,
// starts Kafka, Apicurio Registry, MongoDB 7 and Redis as containers (shared/testing/src/containers.ts),
// hands their addresses to jest in the environment, leaves out what needs the native stack
// (NATIVE_ONLY: the disruptive tests, `npm start`'s test) and removes the containers at the end.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './dependencies.mjs';
import { onPinnedNode } from './pinned-node.mjs';

// Everything below runs on the Node.js of .nvmrc (fetched once if this machine has another).
onPinnedNode();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
ensureDependencies(root, 'test');
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const jestArgs = args.filter((a) => a !== '--unit');
const results = join(root, '.test-results');
mkdirSync(results, { recursive: true });

function run(command, commandArgs, what) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function jest(projects, outputName, extra = []) {
  const output = join(results, `${outputName}.json`);
  rmSync(output, { force: true });
  // --forceExit: a failed test that left a client open (a Kafka consumer, a socket) must not keep
  // jest, and so CI, waiting after the results are in; jest still names the open handles.
  const status = run(process.execPath, [
    join(root, 'node_modules/jest/bin/jest.js'),
    ...jestArgs,
    ...extra,
    '--json',
    `--outputFile=${output}`,
    '--passWithNoTests',
    '--forceExit',
    '--selectProjects',
    ...projects,
  ]);
  if (!existsSync(output)) return { passed: 0, failed: 0, status: status || 1 };
  const report = JSON.parse(readFileSync(output, 'utf8'));
  // A suite that failed to run (syntax error, failing beforeAll) has no failed test: count it.
  const brokenSuites = report.testResults.filter(
    (s) => s.status === 'failed' && s.assertionResults.every((a) => a.status !== 'failed'),
  ).length;
  return { passed: report.numPassedTests, failed: report.numFailedTests + brokenSuites, status };
}

/**
 * After a failed project: the warnings and errors of the service processes it ran (their logs in
 * .test-results/service-logs, written since `since`), so a failure in CI shows what the services
 * said, not only what the test waited for. Bounded: the last lines of each log, 400 lines in all.
 */
function printServiceLogs(since) {
  const dir = join(results, 'service-logs');
  if (!existsSync(dir)) return;
  const files = readdirSync(dir)
    .map((name) => ({ name, path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    .filter((f) => f.mtime >= since)
    .sort((a, b) => a.mtime - b.mtime);
  let budget = 400;
  console.log(
    `\n== warnings and errors of the ${files.length} service processes of the failed tests (.test-results/service-logs)`,
  );
  for (const file of files) {
    const lines = readFileSync(file.path, 'utf8')
      .split('\n')
      .filter((line) => /"level":"(warn|error|fatal)"/.test(line) || (line.trim() !== '' && !line.startsWith('{')));
    if (lines.length === 0 || budget <= 0) continue;
    const shown = lines.slice(-Math.min(30, budget));
    budget -= shown.length;
    console.log(`-- ${file.name} (${shown.length} of ${lines.length} lines)`);
    for (const line of shown) console.log(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
  }
}

const totals = { passed: 0, failed: 0 };
let exitCode = 0;
const add = (r) => {
  totals.passed += r.passed;
  totals.failed += r.failed;
  if (r.status !== 0) exitCode = 1;
};

/** The test infrastructure TEST_INFRA names (refused with a clear line when unknown); after the build. */
function selectInfra() {
  const { testInfra, NATIVE_ONLY } = createRequire(import.meta.url)(join(root, 'shared/testing/dist/infra.js'));
  try {
    return { infra: testInfra(), nativeOnly: NATIVE_ONLY };
  } catch (error) {
    console.error(`test: ${error.message}`);
    process.exit(1);
  }
}

/** TEST_INFRA=testcontainers: the containers, their addresses in this process's environment (jest inherits it). */
async function startContainers() {
  const { startContainers } = createRequire(import.meta.url)(join(root, 'shared/testing/dist/containers.js'));
  try {
    const started = await startContainers((line) => console.log(`test: ${line}`));
    Object.assign(process.env, started.env);
    console.log(`test: containers ready: ${Object.values(started.env).join(' ')}`);
    return started;
  } catch (error) {
    console.error(
      `test: TEST_INFRA=testcontainers, but the containers did not start: ${error?.message ?? error} ` +
        '(testcontainers needs a Docker engine it can reach, e.g. through DOCKER_HOST; without TEST_INFRA the tests run on the native stack)',
    );
    process.exit(1);
  }
}

if (unitOnly) {
  add(jest(['unit'], 'unit'));
} else {
  // Built first: the services run from dist in the process-level tests, and the stack's choice is
  // read from shared/testing's build.
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  if (run(process.execPath, [tsc, '-b']) !== 0 || run(process.execPath, [tsc, '-p', 'tsconfig.tests.json']) !== 0) {
    console.error('test: the build or the type check of the tests failed');
    process.exit(1);
  }
  const { infra, nativeOnly } = selectInfra();
  let containers;
  if (infra === 'testcontainers') containers = await startContainers();
  else if (run('bash', [join(root, 'scripts/stack/stack.sh'), 'up']) !== 0) {
    console.error('test: the local stack did not come up; see the line above');
    process.exit(1);
  }
  // The browser tests (gateway-auth's /docs) drive Debian's chromium; a fresh machine lacks it.
  if (run('bash', [join(root, 'scripts/browser/chromium.sh')]) !== 0) {
    console.error(
      'test: Chromium (/usr/bin/chromium) could not be installed by scripts/browser/chromium.sh; see the lines above',
    );
    await containers?.stop();
    process.exit(1);
  }
  // Service processes started by the tests log here (and leave their last metrics scrape), the
  // test helpers record the secrets they issued and the error bodies they got: the audit reads all
  // of it at the end, so nothing of an earlier run may remain.
  for (const dir of ['service-logs', 'issued-secrets', 'error-bodies'])
    rmSync(join(results, dir), { recursive: true, force: true });
  // disruptive first, on the stack as a fresh clone starts it: the fault proof and the fresh-cluster
  // journey measure recovery, and after the main run the local engine holds the hundreds of
  // databases the integration tests leave (CI's proof then ran 45 % longer, 684 s against 472 s,
  // and once stalled behind it). fuzz: Schemathesis against every OpenAPI document (test/fuzz),
  // after the main run (its own cluster of six processes would slow the integration tests down).
  const runs = [
    [['disruptive'], 'disruptive', ['--runInBand']],
    [['unit', 'integration'], 'main', []],
    [['fuzz'], 'fuzz', ['--runInBand']],
  ];
  try {
    for (const [projects, name, extra] of runs) {
      // With containers, what needs the native stack is left out, and said so.
      const left = infra === 'native' ? [] : projects.filter((p) => p in nativeOnly.projects);
      for (const p of left) console.log(`test: left out with TEST_INFRA=${infra}: ${p} (${nativeOnly.projects[p]})`);
      const selected = projects.filter((p) => !left.includes(p));
      if (selected.length === 0) continue;
      const since = Date.now();
      const result = jest(selected, name, extra);
      add(result);
      if (result.failed > 0 || result.status !== 0) printServiceLogs(since);
      // The disruptive tests restart stack components; whatever one left stopped comes back here.
      if (name === 'disruptive' && infra === 'native') run('bash', [join(root, 'scripts/stack/stack.sh'), 'up']);
    }
    add(jest(['audit'], 'audit'));
  } finally {
    if (containers) {
      console.log('test: removing the containers');
      await containers.stop();
    }
  }
}

console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(exitCode || (totals.failed > 0 ? 1 : 0));
