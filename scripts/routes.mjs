// The route table of every service, each route with its audience (who may call it): the operator's
// review surface. Each service prints its own (`node services/<name>/dist/main.js --routes`, which
// connects to nothing); build first (npm run build).
//
//   npm run routes                      every service, as a table
//   npm run routes -- catalog           one service (or several)
//   npm run routes -- --json            the same, as JSON ({ service: [{ method, path, audience }] })
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const names = Object.keys(JSON.parse(readFileSync(join(root, 'scripts', 'services.json'), 'utf8')).services);

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const wanted = args.filter((a) => !a.startsWith('--'));
const unknown = wanted.filter((name) => !names.includes(name));
if (unknown.length > 0) {
  console.error(`unknown service ${unknown.join(', ')} (one of ${names.join(', ')})`);
  process.exit(2);
}
const selected = wanted.length > 0 ? names.filter((name) => wanted.includes(name)) : names;

async function routesOf(name) {
  const main = join(root, 'services', name, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const { stdout } = await promisify(execFile)(process.execPath, [main, '--routes'], {
    cwd: root,
    timeout: 30_000,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
  });
  return JSON.parse(stdout);
}

let tables;
try {
  tables = Object.fromEntries(await Promise.all(selected.map(async (name) => [name, await routesOf(name)])));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

if (asJson) {
  console.log(JSON.stringify(tables, null, 2));
} else {
  for (const [name, routes] of Object.entries(tables)) {
    const counts = {};
    for (const { audience } of routes) counts[audience] = (counts[audience] ?? 0) + 1;
    const summary = Object.entries(counts)
      .map(([audience, n]) => `${n} ${audience}`)
      .join(', ');
    console.log(`\n${name}: ${routes.length} routes (${summary})`);
    const methodWidth = Math.max(6, ...routes.map((r) => r.method.length));
    const audienceWidth = Math.max(8, ...routes.map((r) => r.audience.length));
    console.log(`  ${'AUDIENCE'.padEnd(audienceWidth)}  ${'METHOD'.padEnd(methodWidth)}  PATH`);
    for (const { method, path, audience } of routes)
      console.log(`  ${audience.padEnd(audienceWidth)}  ${method.padEnd(methodWidth)}  ${path}`);
  }
}
