import { randomUUID } from 'node:crypto';
import type { Audience, DeclaredRoute } from '@marketplace/http';
import { IDENTITY_HEADER, privateKeyFrom, signIdentity, type CallerIdentity } from '@marketplace/identity';
import { adminToken, localEnv, platformAccountSettings, processorSignatureOf } from '@marketplace/testing';
import { send, startHostileCluster, type HostileCluster } from './support/cluster';
import { ALL_SCOPES, installation, providerAdmin } from './support/owners';
import { inPool, rawRequest, type RawAnswer } from './support/raw-http';
import {
  CLIMBS,
  fillPath,
  loadRouteTables,
  SERVICES,
  spellingsOf,
  traversal,
  type RouteTables,
  type ServiceName,
} from './support/route-tables';

// Every route of every service, from the tables the services print themselves (`main.js --routes`,
// so a route added later is covered without touching this file), called on raw sockets (no client
// normalises the path) by every kind of caller:
//   (a) without credentials: 401;
//   (b) with the valid credentials of every other audience: 401;
//   (c) with spellings of its path (other cases, doubled and trailing slashes, encoded slashes,
//       letters and dots, dot segments, ;params, backslashes), with its own valid credentials and
//       with none (administrator routes: every spelling, and with other audiences' credentials
//       too): 400, 401, 404 or 405, never an answer of the route;
//   (d) through the gateway, climbing out of each forwarded prefix with raw and encoded dot
//       segments towards every route of every service behind it: 400, 401, 404 or 405.
// And the reported exploits, one by one. Every failure of a part is collected and shown at once.

/** Each table must hold at least this many routes: an empty or truncated table fails. */
const MIN_ROUTES: Record<ServiceName, number> = {
  'gateway-auth': 100,
  catalog: 30,
  'ordering-pricing': 20,
  'delivery-assignment': 10,
  'provider-delivery': 30,
  'webhook-sender': 10,
};
const REFUSED = [401];
const NOT_SERVED = [400, 401, 404, 405];
const CONCURRENCY = 8;
/** A route's wildcard tail (`/{*rest}`, `/*rest`): the gateway forwards everything under it. */
const WILDCARD_TAIL = /\/\{?\*[A-Za-z]+\}?$/;
/** Spellings every route must have (the suite sends them all). */
const MIN_SPELLINGS = 10;

type CredentialName =
  | 'none'
  | 'partner API key'
  | 'tenant token'
  | 'gateway admin token'
  | 'provider admin token'
  | 'platform API key'
  | 'courier token'
  | 'tenant identity'
  | 'partner identity'
  | 'processor signature'
  | 'processor identity'
  | 'admin identity';

/** The credentials of each audience a service serves: a route's own; every other one is another audience's. */
const OWN: Record<ServiceName, Partial<Record<Audience, CredentialName>>> = {
  'gateway-auth': {
    partner: 'partner API key',
    tenant: 'tenant token',
    admin: 'gateway admin token',
    processor: 'processor signature',
  },
  catalog: { partner: 'partner identity', tenant: 'tenant identity' },
  'ordering-pricing': { partner: 'partner identity', tenant: 'tenant identity', processor: 'processor identity' },
  'delivery-assignment': { partner: 'partner identity', tenant: 'tenant identity', admin: 'admin identity' },
  'provider-delivery': { admin: 'provider admin token', platform: 'platform API key', courier: 'courier token' },
  'webhook-sender': { partner: 'partner identity', tenant: 'tenant identity', admin: 'provider admin token' },
};
const OPEN_AUDIENCES: Audience[] = ['public', 'probe'];

interface Credentials {
  partnerKey: string;
  tenantId: string;
  tenantToken: string;
  installationId: string;
  gatewayAdmin: string;
  providerAdmin: string;
  accountId: string;
  platformKey: string;
  courierToken: string;
  processorSecret: string;
}

interface Call {
  part: string;
  service: ServiceName;
  /** `METHOD /pattern` of the route (or the target) the call is about. */
  route: string;
  what: string;
  method: string;
  target: string;
  credential: CredentialName;
  allowed: number[];
  body?: unknown;
}

let cluster: HostileCluster;
let creds: Credentials;
let tables: RouteTables | undefined;
let tablesError: unknown;
const identityKey = () => privateKeyFrom(localEnv().INTERNAL_IDENTITY_PRIVATE_KEY!);
let sent = 0;
/** Statuses answered, by part of the suite: the report says what the refusals were. */
const statuses = new Map<string, Map<number, number>>();
const started = Date.now();
let requestMs = 0;

beforeAll(async () => {
  // The tables are read beside the cluster's start; a failure to read them fails the table-driven
  // tests, not the reported exploits (which run against an older build too).
  const reading = loadRouteTables().then(
    (t) => void (tables = t),
    (error: unknown) => void (tablesError = error),
  );
  cluster = await startHostileCluster();
  const gw = cluster.gateway;
  const created = await gw.admin.call('POST', '/api/admin/v1/tenants', {
    slug: `hostile-routes-${randomUUID().slice(0, 8)}`,
    name: 'Hostile routes',
    currencyCode: 'EUR',
    defaultLanguage: 'en',
  });
  if (created.status !== 201) throw new Error(`tenant: ${created.status} ${JSON.stringify(created.body)}`);
  const tenantId: string = created.body.id;
  const tenantToken: string = (await gw.admin.call('POST', `/api/admin/v1/tenants/${tenantId}/tokens`, {})).body.token;
  const tenant = (method: string, path: string, body?: unknown) =>
    send(`${gw.url}/api/tenant/v1${path}`, method, `Bearer ${tenantToken}`, body);
  const admin = providerAdmin(cluster);
  const [installed, account] = await Promise.all([
    installation(cluster, tenant, 'routes', ALL_SCOPES),
    admin('POST', '/platform-accounts', platformAccountSettings(`Hostile routes ${randomUUID().slice(0, 8)}`)),
  ]);
  if (account.status !== 201) throw new Error(`platform account: ${account.status} ${account.text}`);
  const accountId: string = account.body.account.id;
  const [key, driver] = await Promise.all([
    admin('POST', `/platform-accounts/${accountId}/api-keys`),
    admin('POST', `/platform-accounts/${accountId}/drivers`, {
      name: 'Hostile routes driver',
      phone: '+49 170 1234567',
      vehicle: 'bicycle',
      online: false,
      position: { lat: 52.528, lng: 13.4 },
    }),
  ]);
  const processor = await tenant('POST', '/payment-processor/secret/rotate');
  if (processor.status !== 200) throw new Error(`processor secret: ${processor.status} ${processor.text}`);
  if (key.status !== 201 || driver.status !== 201)
    throw new Error(`platform key or driver: ${key.status} ${key.text} ${driver.status} ${driver.text}`);
  creds = {
    partnerKey: installed.apiKey,
    tenantId,
    tenantToken,
    installationId: installed.installationId,
    gatewayAdmin: adminToken(),
    providerAdmin: cluster.providerAdminToken,
    accountId,
    platformKey: key.body.apiKey,
    courierToken: driver.body.courierToken,
    processorSecret: processor.body.secret,
  };
  await reading;
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  const byPart = [...statuses]
    .map(([part, counts]) => `${part}: ${[...counts].map(([status, n]) => `${n}×${status || 'none'}`).join(' ')}`)
    .join('; ');
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.info(
    `routes-auth: ${sent} raw requests in ${seconds(requestMs)} s of sending, ${seconds(Date.now() - started)} s in all (${byPart})`,
  );
});

function routeTables(): RouteTables {
  if (!tables) throw new Error(`the route tables could not be read: ${String(tablesError)}`);
  return tables;
}

const tenantProfile = { currencyCode: 'EUR', defaultLanguage: 'en' };

/** The headers of a credential for a request of `method` to `target` at `service`, with `body`. */
function headersOf(
  credential: CredentialName,
  service: ServiceName,
  method: string,
  target: string,
  body?: unknown,
): Record<string, string> {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const identity = (id: CallerIdentity) => ({
    [IDENTITY_HEADER]: signIdentity(identityKey(), id, { method, path: target.split('?')[0]!, service }),
  });
  switch (credential) {
    case 'none':
      return {};
    case 'partner API key':
      return { Authorization: `ApiKey ${creds.partnerKey}` };
    case 'tenant token':
      return bearer(creds.tenantToken);
    case 'gateway admin token':
      return bearer(creds.gatewayAdmin);
    case 'provider admin token':
      return bearer(creds.providerAdmin);
    case 'platform API key':
      return bearer(creds.platformKey);
    case 'courier token':
      return bearer(creds.courierToken);
    case 'tenant identity':
      return identity({ kind: 'tenant', tenantId: creds.tenantId, tenant: tenantProfile });
    case 'partner identity':
      return identity({
        kind: 'partner',
        tenantId: creds.tenantId,
        tenant: tenantProfile,
        installationId: creds.installationId,
        appId: randomUUID(),
        scopes: ALL_SCOPES,
      });
    case 'processor signature': {
      // The tenant's processor secret over the exact body sent (none: the empty string), signed now.
      const timestamp = Math.floor(Date.now() / 1000);
      const raw = body === undefined ? '' : JSON.stringify(body);
      return {
        'X-Processor-Timestamp': String(timestamp),
        'X-Processor-Signature': processorSignatureOf(creds.processorSecret, timestamp, raw),
      };
    }
    case 'processor identity':
      return identity({ kind: 'processor', tenantId: creds.tenantId, tenant: tenantProfile });
    case 'admin identity':
      return identity({ kind: 'admin', subject: 'hostile-admin' });
  }
}

const ALL_CREDENTIALS: CredentialName[] = [
  'partner API key',
  'tenant token',
  'gateway admin token',
  'provider admin token',
  'platform API key',
  'courier token',
  'tenant identity',
  'partner identity',
  'processor signature',
  'processor identity',
  'admin identity',
];

/** Sends the calls (a few at a time) and returns one line per answer outside its allowed statuses. */
async function failuresOf(calls: Call[]): Promise<string[]> {
  const t0 = Date.now();
  const answers = await inPool(calls, CONCURRENCY, (call): Promise<RawAnswer> => {
    const headers: Record<string, string> = headersOf(
      call.credential,
      call.service,
      call.method,
      call.target,
      call.body,
    );
    if (call.method === 'POST' || call.method === 'PATCH') headers['Idempotency-Key'] = randomUUID();
    return rawRequest({
      base: cluster.services[call.service]!.url,
      method: call.method,
      target: call.target,
      headers,
      body: call.body,
    });
  });
  requestMs += Date.now() - t0;
  sent += calls.length;
  calls.forEach((call, i) => {
    const counts = statuses.get(call.part) ?? new Map<number, number>();
    counts.set(answers[i]!.status, (counts.get(answers[i]!.status) ?? 0) + 1);
    statuses.set(call.part, counts);
  });
  return calls.flatMap((call, i) => {
    const answer = answers[i]!;
    if (call.allowed.includes(answer.status)) return [];
    return [
      `(${call.part}) ${call.service} ${call.route} [${call.what}] ${call.method} ${call.target} with ${call.credential}` +
        ` -> ${answer.status || answer.error} ${answer.snippet.replace(/\s+/g, ' ').slice(0, 160)}`,
    ];
  });
}

interface GuardedRoute {
  service: ServiceName;
  route: DeclaredRoute;
  key: string;
  own: CredentialName | undefined;
}

/** Every route that needs credentials, of every service, with the credentials of its own audience. */
function guardedRoutes(): GuardedRoute[] {
  const all = routeTables();
  return SERVICES.flatMap((service) =>
    all[service]
      .filter((route) => !OPEN_AUDIENCES.includes(route.audience))
      .map((route) => ({
        service,
        route,
        key: `${service} ${route.method} ${route.path}`,
        own: OWN[service][route.audience],
      })),
  );
}

it('reads every service route table, and has credentials for every audience in them', () => {
  const all = routeTables();
  const sizes = Object.fromEntries(SERVICES.map((s) => [s, all[s].length]));
  for (const service of SERVICES)
    expect({ service, enough: sizes[service]! >= MIN_ROUTES[service] }).toEqual({ service, enough: true });
  const uncovered = guardedRoutes()
    .filter((r) => !r.own)
    .map((r) => `${r.key} (${r.route.audience}): the suite has no credentials of this audience at this service`);
  expect(uncovered).toEqual([]);
});

it('holds live credentials of every audience (each gets past its own guard)', async () => {
  const calls: Call[] = [];
  const seen = new Set<string>();
  for (const { service, route, own } of guardedRoutes()) {
    if (!own || route.method !== 'GET' || seen.has(`${service} ${route.audience}`)) continue;
    // The first GET route of each audience, preferring one without parameters.
    const candidates = routeTables()[service].filter((r) => r.audience === route.audience && r.method === 'GET');
    const chosen = candidates.find((r) => !/[:*]/.test(r.path)) ?? candidates[0]!;
    seen.add(`${service} ${route.audience}`);
    const target =
      fillPath(chosen.path).path +
      (chosen.path === '/admin/v1/provider-callbacks' ? `?accountId=${creds.accountId}` : '');
    calls.push({
      part: 'live',
      service,
      route: `${chosen.method} ${chosen.path}`,
      what: 'own credentials, canonical path',
      method: 'GET',
      target,
      credential: own,
      allowed: [200, 404],
    });
  }
  expect(calls.length).toBeGreaterThanOrEqual(10);
  expect(await failuresOf(calls)).toEqual([]);
});

it('(a) refuses every route without credentials', async () => {
  const calls = guardedRoutes().map(({ service, route }): Call => ({
    part: 'a',
    service,
    route: `${route.method} ${route.path}`,
    what: 'canonical path',
    method: route.method,
    target: fillPath(route.path).path,
    credential: 'none',
    allowed: REFUSED,
  }));
  expect(await failuresOf(calls)).toEqual([]);
});

it("(b) refuses every route with every other audience's valid credentials", async () => {
  const calls = guardedRoutes().flatMap(({ service, route, own }) =>
    ALL_CREDENTIALS.filter((credential) => credential !== own).map((credential): Call => ({
      part: 'b',
      service,
      route: `${route.method} ${route.path}`,
      what: 'canonical path',
      method: route.method,
      target: fillPath(route.path).path,
      credential,
      allowed: REFUSED,
    })),
  );
  expect(await failuresOf(calls)).toEqual([]);
});

it('(c) answers no other spelling of any route, with its own credentials, none or another audience', async () => {
  const calls: Call[] = [];
  const perRoute = new Map<string, number>();
  guardedRoutes().forEach(({ service, route, own, key }, index) => {
    // Every spelling with the route's own credentials and with none; administrator routes also
    // with another audience's credentials (in turn).
    const spellings = spellingsOf(fillPath(route.path));
    const admin = route.audience === 'admin';
    const others = ALL_CREDENTIALS.filter((c) => c !== own);
    spellings.forEach((spelling, k) => {
      const withCredentials: CredentialName[] = [
        own!,
        'none',
        ...(admin ? [others[(index + k) % others.length]!] : []),
      ];
      for (const credential of withCredentials)
        calls.push({
          part: 'c',
          service,
          route: `${route.method} ${route.path}`,
          what: spelling.name,
          method: route.method,
          target: spelling.path,
          credential,
          allowed: NOT_SERVED,
        });
    });
    perRoute.set(key, spellings.length);
  });
  const thin = [...perRoute].filter(([, n]) => n < MIN_SPELLINGS).map(([key, n]) => `${key}: ${n} spellings`);
  expect(thin).toEqual([]);
  expect(await failuresOf(calls)).toEqual([]);
});

it('(d) forwards no path that climbs out of a gateway prefix, to any route of any service behind it', async () => {
  const all = routeTables();
  const gatewayRoutes = all['gateway-auth'];
  // Prefixes the gateway forwards from: each tenant forward (`<prefix>/{*rest}`), the Partner API
  // root and the literal part before each Partner route's first parameter.
  const forwards = gatewayRoutes
    .filter((r) => WILDCARD_TAIL.test(r.path))
    .map((r) => r.path.replace(WILDCARD_TAIL, ''));
  const partner = gatewayRoutes.filter((r) => r.audience === 'partner');
  const partnerRoot = '/api/partner/v1';
  const partnerPrefixes = [
    partnerRoot,
    ...partner.filter((r) => r.path.includes('/:')).map((r) => r.path.split('/:')[0]!),
  ];
  const prefixes = [...new Set([...forwards, ...partnerPrefixes])].map(
    (prefix): { prefix: string; forwarding: CredentialName } => ({
      prefix,
      forwarding: prefix.startsWith(partnerRoot) ? 'partner API key' : 'tenant token',
    }),
  );
  expect(forwards.length).toBeGreaterThanOrEqual(7);

  // Targets: every route of every service behind the gateway and of provider-delivery, the
  // administrator routes in their ADMIN and Admin spellings too.
  const behind: ServiceName[] = [
    'catalog',
    'ordering-pricing',
    'delivery-assignment',
    'webhook-sender',
    'provider-delivery',
  ];
  const query = (path: string) => (path === '/admin/v1/provider-callbacks' ? `?accountId=${creds.accountId}` : '');
  const targets = behind.flatMap((service) =>
    all[service]
      .filter((r) => r.audience !== 'probe')
      .flatMap((r) => {
        const filled = fillPath(r.path).path + query(r.path);
        const spelled =
          r.audience === 'admin'
            ? [filled.replace(/^\/admin\//, '/ADMIN/'), filled.replace(/^\/admin\//, '/Admin/')]
            : [];
        return [filled, ...spelled].map((target) => ({
          route: `${service} ${r.method} ${r.path}`,
          method: r.method,
          target,
          admin: r.audience === 'admin',
        }));
      }),
  );
  const adminTargets = targets.filter((t) => t.admin);
  const credentials: CredentialName[] = [
    'none',
    'partner API key',
    'tenant token',
    'gateway admin token',
    'provider admin token',
    'platform API key',
    'courier token',
  ];
  const call = (prefix: string, climb: string, target: (typeof targets)[number], credential: CredentialName): Call => ({
    part: 'd',
    service: 'gateway-auth',
    route: target.route,
    what: `from ${prefix} by ${climb}`,
    method: target.method,
    target: traversal(prefix, climb, target.target),
    credential,
    allowed: NOT_SERVED,
  });
  const calls: Call[] = [];
  // Every target from every prefix (the climb in turn), with the credentials the prefix forwards.
  prefixes.forEach(({ prefix, forwarding }, p) =>
    targets.forEach((target, t) => calls.push(call(prefix, CLIMBS[(p + t) % CLIMBS.length]!, target, forwarding))),
  );
  // Every target by every climb (the prefix in turn).
  CLIMBS.forEach((climb, c) =>
    targets.forEach((target, t) => {
      const { prefix, forwarding } = prefixes[(c + t) % prefixes.length]!;
      calls.push(call(prefix, climb, target, forwarding));
    }),
  );
  // Every prefix, climb and audience's credentials, towards the administrator routes in turn.
  prefixes.forEach(({ prefix }, p) =>
    CLIMBS.forEach((climb, c) =>
      credentials.forEach((credential, k) =>
        calls.push(call(prefix, climb, adminTargets[(p * 31 + c * 7 + k) % adminTargets.length]!, credential)),
      ),
    ),
  );
  expect(await failuresOf(calls)).toEqual([]);
});

describe('the reported exploits', () => {
  it('does not serve the administrator routes of provider-delivery and webhook-sender in another case', async () => {
    const calls: Call[] = [
      ['GET', '/ADMIN/v1/platform-accounts'],
      ['GET', '/Admin/v1/platform-accounts'],
      ['POST', '/ADMIN/v1/platform-accounts'],
      ['GET', `/Admin/v1/platform-accounts/${creds.accountId}`],
      ['POST', `/Admin/v1/platform-accounts/${creds.accountId}/api-keys`],
      ['GET', `/Admin/v1/platform-accounts/${creds.accountId}/api-keys`],
      ['POST', `/ADMIN/v1/platform-accounts/${creds.accountId}/drivers`],
    ].flatMap(([method, target]) =>
      (['none', 'platform API key', 'courier token'] as CredentialName[]).map((credential): Call => ({
        part: 'exploit',
        service: 'provider-delivery',
        route: 'administrator route in another case',
        what: 'reported',
        method: method!,
        target: target!,
        credential,
        allowed: [404],
        body:
          method === 'POST' && target === '/ADMIN/v1/platform-accounts'
            ? platformAccountSettings(`Exploit ${randomUUID().slice(0, 8)}`)
            : undefined,
      })),
    );
    for (const target of [
      `/Admin/v1/provider-callbacks?accountId=${creds.accountId}`,
      `/ADMIN/v1/provider-callbacks?accountId=${creds.accountId}`,
      `/admin/V1/provider-callbacks?accountId=${creds.accountId}`,
      `/Admin/v1/provider-callbacks/${randomUUID()}/redeliver`,
    ])
      for (const credential of ['none', 'tenant identity'] as CredentialName[])
        calls.push({
          part: 'exploit',
          service: 'webhook-sender',
          route: 'administrator route in another case',
          what: 'reported',
          method: target.endsWith('/redeliver') ? 'POST' : 'GET',
          target,
          credential,
          allowed: [404],
        });
    expect(await failuresOf(calls)).toEqual([]);
  });

  it("does not forward a tenant's climb out of /api/tenant/v1/webhooks to the provider callbacks", async () => {
    const calls: Call[] = [
      `/api/tenant/v1/webhooks/../../../../ADMIN/v1/provider-callbacks?accountId=${creds.accountId}`,
      `/api/tenant/v1/webhooks/../../../../admin/v1/provider-callbacks?accountId=${creds.accountId}`,
      `/api/tenant/v1/webhooks/../../../../Admin/v1/provider-callbacks?accountId=${creds.accountId}`,
      `/api/tenant/v1/webhooks/%2e%2e/%2e%2e/%2e%2e/%2e%2e/ADMIN/v1/provider-callbacks?accountId=${creds.accountId}`,
      `/api/tenant/v1/webhooks/..%2f..%2f..%2f..%2fADMIN/v1/provider-callbacks?accountId=${creds.accountId}`,
      `/api/tenant/v1/catalog/../../../../ADMIN/v1/provider-callbacks?accountId=${creds.accountId}`,
    ].map((target): Call => ({
      part: 'exploit',
      service: 'gateway-auth',
      route: 'tenant forward /api/tenant/v1/webhooks',
      what: 'reported traversal',
      method: 'GET',
      target,
      credential: 'tenant token',
      allowed: [400, 404],
    }));
    expect(await failuresOf(calls)).toEqual([]);
  });
});
