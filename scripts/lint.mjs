#!/usr/bin/env node
// `npm run lint`: the house rules as tools, each run even when an earlier one fails, then one line
// per check and a non-zero exit when any failed. CI runs it before the tests.
//
//   contracts   generated types match their JSON Schemas   (npm run contracts:check)
//   clients     kits/clients' types match docs/api/         (node scripts/clients/generate.mjs --check)
//   boundaries  who may import what                         (npm run lint:boundaries, dependency-cruiser)
//   eslint      typescript-eslint, type-aware rules          (eslint.config.mjs)
//   prettier    formatting                                   (npm run format writes it)
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);
const CHECKS = [
  ['contracts', process.execPath, [join(root, 'scripts/contracts/generate.mjs'), '--check']],
  ['clients', process.execPath, [join(root, 'scripts/clients/generate.mjs'), '--check']],
  ['boundaries', 'npm', ['run', '--silent', 'lint:boundaries']],
  ['eslint', bin('eslint'), ['--max-warnings', '0', '.']],
  ['prettier', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
];
// Each check has a bound: a hung tool must not hold CI.
const TIMEOUT_MS = 10 * 60_000;

const results = [];
for (const [name, command, args] of CHECKS) {
  console.log(`\n== lint: ${name}`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', timeout: TIMEOUT_MS, killSignal: 'SIGKILL' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = run.status === 0;
  const why =
    run.error?.code === 'ETIMEDOUT'
      ? `no result within ${TIMEOUT_MS / 60_000} min`
      : run.error
        ? run.error.message
        : `exit ${run.status ?? run.signal}`;
  results.push({ name, ok, line: `${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)${ok ? '' : `: ${why}`}` });
}
console.log('\n== lint results');
for (const r of results) console.log(r.line);
process.exit(results.every((r) => r.ok) ? 0 : 1);
