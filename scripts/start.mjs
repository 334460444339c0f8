#!/usr/bin/env node
// `npm start`: installs the npm dependencies when they are missing or stale, brings up the local
// stack, builds, starts the six services as separate processes,
// waits until every one is ready and prints where each listens. Ctrl-C stops them cleanly (the
// stack keeps running; `npm run stack:down` stops it).
//
// Each service's JSON log goes to .stack/logs/<service>.log; warnings and errors are also shown
// here, prefixed with the service name. `npm start -- --logs` shows every line.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ensureDependencies } from './dependencies.mjs';
import { isReady, readStackEnv, root, runFile, services, stackDir } from './services.mjs';
import { onPinnedNode } from './pinned-node.mjs';

// Everything below runs on the Node.js of .nvmrc (fetched once if this machine has another).
onPinnedNode();

const READY_TIMEOUT_MS = Number(process.env.START_READY_TIMEOUT_MS ?? 120_000);
const STOP_TIMEOUT_MS = 20_000;
const showAll = process.argv.includes('--logs');

function step(what, command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`start: ${what} failed`);
    process.exit(1);
  }
}

ensureDependencies(root, 'start');
step('the local stack', 'bash', ['scripts/stack/stack.sh', 'up']);
step('the build', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b']);

const logDir = join(stackDir, 'logs');
mkdirSync(logDir, { recursive: true });
const stackEnv = readStackEnv();
const running = services().map((service) => {
  const log = createWriteStream(join(logDir, `${service.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [join(root, 'services', service.name, 'dist', 'main.js')], {
    cwd: root,
    env: { ...stackEnv, ...process.env, PORT: String(service.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      log.write(`${line}\n`);
      if (showAll) console.log(`[${service.name}] ${line}`);
      else if (!/"level":"(info|debug|trace)"/.test(line)) console.log(`[${service.name}] ${readable(line)}`);
    });
  }
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { ...service, child, exited, log };
});
writeFileSync(
  runFile,
  JSON.stringify(
    { services: running.map(({ name, url, port, child }) => ({ name, url, port, pid: child.pid })) },
    null,
    2,
  ),
);

/** A warning or error as one line a person reads: level, message, the error's message (its stack stays in the log file). */
function readable(line) {
  try {
    const entry = JSON.parse(line);
    const cause = entry.err?.message ? `: ${entry.err.message}` : '';
    return `${entry.level} ${entry.msg}${cause}`;
  } catch {
    return line;
  }
}

let stopping = false;
async function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping services...');
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGTERM');
  const timer = setTimeout(() => {
    for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  }, STOP_TIMEOUT_MS);
  const results = await Promise.all(running.map((s) => s.exited));
  clearTimeout(timer);
  rmSync(runFile, { force: true });
  results.forEach((r, i) =>
    console.log(`  ${running[i].name}: ${r.signal ? `killed (${r.signal})` : `exited ${r.code}`}`),
  );
  console.log('the local stack is still running: npm run stack:down stops it');
  process.exit(exitCode);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
for (const s of running) {
  s.exited.then(({ code, signal }) => {
    if (stopping) return;
    console.error(`start: ${s.name} exited (${signal ?? code}); see .stack/logs/${s.name}.log`);
    stopAll(1);
  });
}

const startedAt = Date.now();
const deadline = startedAt + READY_TIMEOUT_MS;
const pending = new Set(running.map((s) => s.name));
while (pending.size > 0 && !stopping) {
  for (const s of running)
    if (pending.has(s.name) && (await isReady(s.url))) {
      pending.delete(s.name);
      console.log(`${s.name.padEnd(20)} ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
    }
  if (pending.size === 0) break;
  if (Date.now() > deadline) {
    console.error(
      `start: not ready within ${READY_TIMEOUT_MS / 1000}s: ${[...pending].join(', ')}; see .stack/logs/<service>.log`,
    );
    await stopAll(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (!stopping) {
  console.log('\nall six services are ready:');
  for (const s of running) console.log(`  ${s.name.padEnd(20)} ${s.url}`);
  console.log('\nlogs: .stack/logs/<service>.log   status: npm run status   stop: Ctrl-C');
}
