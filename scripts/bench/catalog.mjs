#!/usr/bin/env node
// The catalog's partner reads on a large menu, through the gateway:
//   1. builds a menu through the tenant API: 40 categories, 800 products with 3 variants each,
//      30 shared modifier groups nested 4 levels deep, every name also in German;
//   2. measures with autocannon (after a 2 s warm-up) the products route without compression, the
//      same with `Accept-Encoding: gzip`, and the product-detail route of a product whose modifiers
//      nest 4 levels deep: requests/s, p50/p97.5/p99 latency, bytes on the wire (plain and gzip);
//   3. freshness: changes a variant price (PUT) and times the next products read, which must show
//      the new price (the menu is loaded and rendered again for the new revision); three times.
// A benchmark, not a test: it fails only when a request was not answered 2xx or a check fails.
// Building the menu takes a few minutes on FerretDB: the tenant's writes are applied one at a time.
//
//   npm run stack:up && npm run build && npm run bench:catalog [-- --duration 10 --connections 50]
//
// gateway-auth and catalog run as their own processes with their own databases (dropped at the
// end); rate limits are raised so that they never refuse.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import { adminClient, client, cpuMs, dropDatabases, processes, startService, stopServices } from './lib/processes.mjs';

const options = { duration: 10, connections: 50 };
for (let i = 2; i < process.argv.length; i++) {
  const [flag, inline] = process.argv[i].split('=', 2);
  const name = flag.replace(/^--/, '');
  const value = Number(inline ?? process.argv[++i]);
  if (!(name in options) || !(Number.isInteger(value) && value > 0)) {
    console.error('usage: node scripts/bench/catalog.mjs [--duration seconds] [--connections n]');
    process.exit(2);
  }
  options[name] = value;
}
const MENU = { categories: 40, products: 800, variants: 3, groupsPerLevel: [6, 8, 8, 8], optionsPerGroup: 4 };
const tag = randomBytes(4).toString('hex');
const WARMUP_SECONDS = 2;
// High enough never to refuse (the limiter still runs on every request).
const RATE_LIMIT = '1000000';
const DATABASES = { gateway: `bench_catalog_gw_${tag}`, catalog: `bench_catalog_${tag}` };

/** Tenant, app with Catalog.Read, installation, connect: the tenant client and the partner's key. */
async function tenantAndPartner(gatewayUrl) {
  const admin = adminClient(gatewayUrl);
  const tenant = await admin('POST', '/api/admin/v1/tenants', {
    slug: `bench-${tag}`,
    name: 'Bench Bistro',
    currencyCode: 'EUR',
    defaultLanguage: 'en',
  });
  const { token } = await admin('POST', `/api/admin/v1/tenants/${tenant.id}/tokens`, {});
  const app = await admin('POST', '/api/admin/v1/apps', { slug: `bench-app-${tag}`, name: 'Bench App' });
  const version = await admin('POST', `/api/admin/v1/apps/${app.id}/versions`, {
    authType: 'ApiKey',
    scopes: ['Catalog.Read'],
    subscribedEvents: [],
    webhookUrl: null,
  });
  await admin('POST', `/api/admin/v1/apps/${app.id}/versions/${version.version}/publish`);
  const asTenant = client(gatewayUrl, token);
  const installation = await asTenant('POST', '/api/tenant/v1/installations', {
    appId: app.id,
    contractVersion: version.version,
  });
  const connected = await asTenant('POST', `/api/tenant/v1/installations/${installation.id}/connect`);
  return {
    tenant: (method, path, body) => asTenant(method, `/api/tenant/v1/catalog${path}`, body),
    apiKey: connected.credentials.apiKey,
  };
}

/** Runs `work` over `items` with `limit` at a time. */
async function pool(items, limit, work) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i], i);
      }
    }),
  );
  return out;
}

/** The large menu. Groups are built from the deepest level up; the first two options of a group open a group of the next level. */
async function buildMenu(tenant) {
  const started = Date.now();
  // Active, so with an address and coordinates (an active branch takes orders).
  const branch = await tenant('POST', '/branches', {
    name: 'Bench Mitte',
    externalLocationId: 'BENCH-1',
    address: { line1: 'Torstrasse 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
    coordinates: { latitude: 52.53, longitude: 13.4 },
  });
  const food = await tenant('POST', '/tax-categories', {
    name: 'Food',
    rate: 7,
    isInclusive: true,
    translations: { de: 'Speisen' },
  });
  const levels = [];
  for (let level = MENU.groupsPerLevel.length - 1; level >= 0; level--) {
    const below = levels[0] ?? [];
    const groups = await pool(Array.from({ length: MENU.groupsPerLevel[level] }), 4, (_, g) =>
      tenant('POST', '/modifier-groups', {
        name: `L${level + 1} group ${g + 1}`,
        translations: { de: `E${level + 1} Gruppe ${g + 1}` },
        minSelections: level === 0 ? 1 : 0,
        maxSelections: 2,
        isRequired: level === 0,
        sortOrder: g,
        options: Array.from({ length: MENU.optionsPerGroup }, (_, o) => ({
          name: `Option ${o + 1}`,
          translations: { de: `Auswahl ${o + 1}` },
          price: (o * 0.5) % 3,
          isDefault: level === 0 && o === 0,
          childGroupIds: below.length > 0 && o < 2 ? [below[(g + o) % below.length].id] : [],
        })),
      }),
    );
    levels.unshift(groups);
  }
  const top = levels[0];
  const categories = await pool(Array.from({ length: MENU.categories }), 4, (_, c) =>
    tenant('POST', '/categories', {
      name: `Category ${c + 1}`,
      sortOrder: c,
      translations: { de: `Kategorie ${c + 1}` },
    }),
  );
  const products = await pool(Array.from({ length: MENU.products }), 1, (_, p) =>
    tenant('POST', '/products', {
      categoryId: categories[p % MENU.categories].id,
      sortOrder: p,
      sku: `SKU-${p + 1}`,
      name: `Product ${p + 1}`,
      imageUrl: `https://images.example.com/products/${p + 1}.jpg`,
      taxCategoryId: food.id,
      translations: { de: `Produkt ${p + 1}` },
      variants: Array.from({ length: MENU.variants }, (_, v) => ({
        sku: `SKU-${p + 1}-${v + 1}`,
        name: ['Small', 'Medium', 'Large'][v] ?? `Size ${v + 1}`,
        translations: { de: ['Klein', 'Mittel', 'Groß'][v] ?? `Größe ${v + 1}` },
        price: 5 + v * 2.5 + (p % 10) / 10,
        compareAtPrice: v === 2 ? 20 : null,
        isDefault: v === 0,
        modifierGroupIds: [top[p % top.length].id, top[(p + 1) % top.length].id],
      })),
    }),
  );
  return { branch, products, groups: levels.flat().length, seconds: (Date.now() - started) / 1000 };
}

/** One GET with node:http (fetch would decompress): status, headers, the body as sent, and the time to its last byte. */
function get(url, headers = {}) {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, timeout: 30_000 }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          bytes: Buffer.concat(chunks),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer within 30 s`)));
    req.on('error', reject);
    req.end();
  });
}
const json = (res) => JSON.parse(res.bytes.toString('utf8'));
const round = (x) => Math.round(x * 100) / 100;

/** How deep modifier groups nest in a product detail (a variant's groups are level 1). */
function depth(groups) {
  return groups.length === 0
    ? 0
    : 1 + Math.max(...groups.flatMap((g) => g.options.map((o) => depth(o.childGroups ?? []))));
}

let running; // the autocannon run in progress, stopped on Ctrl-C
let interrupted = false;
async function load(url, headers, duration, latencies) {
  running = autocannon({ url, headers, connections: options.connections, duration });
  // autocannon's histogram keeps whole milliseconds: keep each 2xx response's time (fractional ms).
  if (latencies)
    running.on('response', (client, status, bytes, ms) => status >= 200 && status < 300 && latencies.push(ms));
  const result = await running;
  if (interrupted) await new Promise(() => undefined); // the signal handler cleans up and exits
  return result;
}

async function measure(title, url, headers) {
  process.stdout.write(`${title}: ${WARMUP_SECONDS} s warm-up, ${options.duration} s measured ... `);
  const warmup = await load(url, headers, WARMUP_SECONDS);
  const latencies = [];
  const cpuBefore = [cpuMs(processes.catalog), cpuMs(processes['gateway-auth'])];
  const result = await load(url, headers, options.duration, latencies);
  const cpuAfter = [cpuMs(processes.catalog), cpuMs(processes['gateway-auth'])];
  const perRequest = (i) =>
    cpuBefore[i] === undefined || cpuAfter[i] === undefined
      ? ''
      : round((cpuAfter[i] - cpuBefore[i]) / result.requests.total);
  const sorted = Float64Array.from(latencies).sort();
  const at = (p) => round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN);
  const failed = result.non2xx + result.errors + warmup.non2xx + warmup.errors;
  console.log(
    failed
      ? `${result.non2xx} non-2xx, ${result.errors} errors (warm-up: ${warmup.non2xx} non-2xx, ${warmup.errors} errors)`
      : 'done',
  );
  if (failed) console.log(`  status codes: ${JSON.stringify(result.statusCodeStats)}`);
  return {
    rps: Math.round(result.requests.average),
    p50: at(0.5),
    p97_5: at(0.975),
    p99: at(0.99),
    mbPerSecond: round(result.throughput.average / 1e6),
    requests: result.requests.total,
    cpuMsPerRequest: { catalog: perRequest(0), gateway: perRequest(1) },
    failed,
  };
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupted = true;
    running?.stop();
    stopServices()
      .then(() => dropDatabases(Object.values(DATABASES)))
      .catch(() => undefined)
      .finally(() => process.exit(130));
  });
}

let exitCode = 0;
try {
  const cpus = os.cpus();
  console.log(
    `node ${process.version}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(2)}; autocannon ${options.connections} connections, ${options.duration} s per route`,
  );
  const catalogUrl = await startService('catalog', { MONGO_DATABASE: DATABASES.catalog });
  const gatewayUrl = await startService('gateway-auth', {
    MONGO_DATABASE: DATABASES.gateway,
    REDIS_KEY_PREFIX: `bench:${tag}:`,
    CATALOG_URL: catalogUrl,
    RATE_LIMIT_PER_IP: RATE_LIMIT,
    RATE_LIMIT_PER_INSTALLATION: RATE_LIMIT,
    TENANT_RATE_LIMIT_PER_IP: RATE_LIMIT,
    TENANT_RATE_LIMIT_PER_TENANT: RATE_LIMIT,
    ADMIN_RATE_LIMIT_PER_IP: RATE_LIMIT,
    ADMIN_RATE_LIMIT_PER_ADMIN: RATE_LIMIT,
  });
  const { tenant, apiKey } = await tenantAndPartner(gatewayUrl);
  process.stdout.write(
    `building the menu (${MENU.categories} categories, ${MENU.products} products x ${MENU.variants} variants, ${MENU.groupsPerLevel.reduce((a, b) => a + b)} modifier groups ${MENU.groupsPerLevel.length} levels deep) ... `,
  );
  const menu = await buildMenu(tenant);
  console.log(
    `${menu.seconds.toFixed(1)} s (${(MENU.products / menu.seconds).toFixed(1)} product writes/s through the gateway, one at a time)`,
  );

  const auth = { authorization: `ApiKey ${apiKey}` };
  const gzip = { ...auth, 'accept-encoding': 'gzip' };
  const listUrl = `${gatewayUrl}/api/partner/v1/catalog/branches/${menu.branch.id}/products?language=de`;
  // Every product offers two top-level groups nesting 4 levels deep; the first one is as deep as any.
  const product = menu.products[0];
  const detailUrl = `${gatewayUrl}/api/partner/v1/catalog/branches/${menu.branch.id}/products/${product.id}?language=de`;

  const cold = await get(listUrl, auth);
  const warm = await get(listUrl, auth);
  const listGzip = await get(listUrl, gzip);
  const detail = await get(detailUrl, auth);
  const detailGzip = await get(detailUrl, gzip);
  for (const [what, res, encoding] of [
    ['products', cold, undefined],
    ['products gzip', listGzip, 'gzip'],
    ['detail', detail, undefined],
    ['detail gzip', detailGzip, 'gzip'],
  ]) {
    if (res.status !== 200 || res.headers['content-encoding'] !== encoding)
      throw new Error(
        `${what}: ${res.status}, content-encoding ${res.headers['content-encoding']} (expected 200, ${encoding ?? 'none'})`,
      );
  }
  const list = json(cold);
  const count = list.categories.reduce((n, c) => n + c.products.length, 0);
  if (count !== MENU.products || list.resolvedLanguage !== 'de' || list.categories.length !== MENU.categories)
    throw new Error(
      `products route: ${count} products in ${list.categories.length} categories, language ${list.resolvedLanguage}`,
    );
  const detailDepth = Math.max(...json(detail).variants.map((v) => depth(v.modifierGroups)));
  if (detailDepth !== MENU.groupsPerLevel.length)
    throw new Error(
      `product detail: modifier groups nest ${detailDepth} levels, expected ${MENU.groupsPerLevel.length}`,
    );
  console.log(
    `products route: ${count} products, ${cold.bytes.length} bytes (${listGzip.bytes.length} gzip); first read after the build ${cold.ms.toFixed(1)} ms (menu loaded and rendered), the next ${warm.ms.toFixed(1)} ms`,
  );
  console.log(
    `product detail: modifier groups ${detailDepth} levels deep, ${detail.bytes.length} bytes (${detailGzip.bytes.length} gzip)`,
  );

  const rows = [
    ['products', await measure('products (plain)  ', listUrl, auth), cold.bytes.length],
    ['products, gzip', await measure('products (gzip)   ', listUrl, gzip), listGzip.bytes.length],
    ['product detail', await measure('product detail    ', detailUrl, auth), detail.bytes.length],
  ];

  // Freshness: the first read after a price change shows the new price (and pays for the new menu).
  const fresh = [];
  let current = product;
  for (const price of [99.99, 98.5, 97.25]) {
    current = await tenant('PUT', `/products/${current.id}`, {
      categoryId: current.categoryId,
      sortOrder: current.sortOrder,
      sku: current.sku,
      name: current.name,
      imageUrl: current.imageUrl,
      taxCategoryId: current.taxCategoryId,
      translations: current.translations,
      variants: current.variants.map((v, i) => ({ ...v, price: i === 1 ? price : v.price })),
    });
    const afterChange = await get(listUrl, auth);
    const seen = json(afterChange)
      .categories.flatMap((c) => c.products)
      .find((p) => p.id === current.id)?.variants[1]?.price;
    if (afterChange.status !== 200 || seen !== price)
      throw new Error(`the read after the price change to ${price}: ${afterChange.status}, showed ${seen}`);
    const next = await get(listUrl, auth);
    fresh.push({ price, firstMs: round(afterChange.ms), nextMs: round(next.ms) });
  }
  console.log(
    `after a price change (PUT), the next products read showed the new price every time, in ${fresh.map((f) => `${f.firstMs} ms`).join(', ')} (menu rebuilt); the read after it ${fresh.map((f) => `${f.nextMs} ms`).join(', ')}`,
  );

  console.log('');
  const row = (cells) =>
    console.log(cells.map((cell, i) => (i === 0 ? String(cell).padEnd(24) : String(cell).padStart(11))).join(''));
  row(['', 'req/s', 'p50 ms', 'p97.5 ms', 'p99 ms', 'MB/s', 'bytes', 'cat. CPU', 'gw CPU']);
  for (const [name, f, bytes] of rows)
    row([
      name,
      f.rps,
      f.p50,
      f.p97_5,
      f.p99,
      f.mbPerSecond,
      bytes,
      f.cpuMsPerRequest.catalog,
      f.cpuMsPerRequest.gateway,
    ]);
  row([
    'first read after change',
    '',
    fresh.map((f) => f.firstMs).sort((a, b) => a - b)[1],
    '',
    Math.max(...fresh.map((f) => f.firstMs)),
    '',
    '',
    '',
    '',
  ]);
  console.log(
    '(MB/s as received, so gzip bytes in the gzip row; CPU: ms of CPU per request in the catalog and gateway-auth processes;',
  );
  console.log(' the last row: median and worst of three changes)');
  console.log(
    JSON.stringify({
      menu: { ...MENU, buildSeconds: menu.seconds },
      sizes: {
        products: cold.bytes.length,
        productsGzip: listGzip.bytes.length,
        detail: detail.bytes.length,
        detailGzip: detailGzip.bytes.length,
      },
      routes: Object.fromEntries(rows.map(([name, f]) => [name, f])),
      coldMs: round(cold.ms),
      freshness: fresh,
      settings: { ...options, warmup: WARMUP_SECONDS, node: process.version, cpus: os.cpus().length },
    }),
  );
  if (rows.some(([, f]) => f.failed)) {
    console.error('FAILED: some requests were not answered 2xx');
    exitCode = 1;
  }
} catch (error) {
  console.error(
    `bench:catalog failed: ${error.message}${error.cause ? ` (${error.cause.code ?? error.cause.message})` : ''}`,
  );
  exitCode = 1;
} finally {
  await stopServices();
  await dropDatabases(Object.values(DATABASES)).catch(() => undefined);
}
process.exit(exitCode);
