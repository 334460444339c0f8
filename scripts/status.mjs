#!/usr/bin/env node
// `npm run status`: readiness of the six services and of the stack. `--json` prints one object:
//   { "services": { "<name>": { "url", "ready" } }, "stack": { "<component>": { "address", "ready" } } }
// and the exit code is non-zero when anything is not ready.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { isReady, root, runningServices } from './services.mjs';

const json = process.argv.includes('--json');

const services = {};
await Promise.all(runningServices().map(async (s) => (services[s.name] = { url: s.url, ready: await isReady(s.url) })));
const ordered = Object.fromEntries(runningServices().map((s) => [s.name, services[s.name]]));

const stackRun = spawnSync('bash', [join(root, 'scripts/stack/stack.sh'), 'status', '--json'], { encoding: 'utf8' });
let stack = {};
try {
  stack = JSON.parse(stackRun.stdout);
} catch {
  stack = { error: { address: null, ready: false, detail: (stackRun.stderr || 'stack status failed').trim() } };
}

const allReady = Object.values(ordered).every((s) => s.ready) && Object.values(stack).every((c) => c.ready);
if (json) {
  console.log(JSON.stringify({ services: ordered, stack }));
} else {
  console.log('SERVICE              READY  URL');
  for (const [name, s] of Object.entries(ordered))
    console.log(`${name.padEnd(20)} ${(s.ready ? 'yes' : 'no').padEnd(6)} ${s.url}`);
  console.log('\nSTACK                READY  ADDRESS');
  for (const [name, c] of Object.entries(stack))
    console.log(`${name.padEnd(20)} ${(c.ready ? 'yes' : 'no').padEnd(6)} ${c.address ?? ''}`);
}
process.exit(allReady ? 0 : 1);
