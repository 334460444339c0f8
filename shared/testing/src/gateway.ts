import { randomBytes } from 'node:crypto';
import { signTestBearerToken } from './bearer-token';
import { recordSecretsIn } from './issued-secrets';
import { recordErrorBody } from './secret-audit';
import { freePort, startServiceProcess, type ServiceProcess } from './service-process';
import { localEnv } from './stack';

/*
 * gateway-auth driven from outside, as a process and over HTTP: an administrator, tenants, apps
 * and connected installations, Partner API calls. Every suite that needs the Partner API goes
 * through these (a service's tests never import another service's code or test support).
 */

export interface TestGateway {
  url: string;
  process: ServiceProcess;
  admin: ApiClient;
  /** The database and Redis prefix of this gateway alone. */
  database: string;
  stop(): Promise<void>;
}

export interface ApiClient {
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

/** JSON calls with a bearer token (admin or tenant). */
export function apiClient(baseUrl: string, token: string): ApiClient {
  return {
    async call(method, path, body, headers = {}) {
      const res = await fetch(baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      const parsed: unknown = text ? JSON.parse(text) : undefined;
      // What the call sent and got under a secret's name (an OAuth client secret, a minted key,
      // a tenant token) goes to the run's issued secrets, which the audit looks for in every log.
      recordSecretsIn(body);
      recordSecretsIn(parsed);
      recordErrorBody(res.status, method, text);
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
  };
}

/** An administrator token for the local stack's MARKETPLACE_TOKEN_SECRET, valid an hour. */
export function adminToken(): string {
  const key = Buffer.from(localEnv().MARKETPLACE_TOKEN_SECRET!, 'base64');
  return signTestBearerToken(key, { role: 'admin', sub: 'test-admin' }, new Date(Date.now() + 3_600_000));
}

/** Starts gateway-auth as its own process with its own database and Redis key prefix. */
export async function startGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  const port = await freePort();
  const database = `it_gw_${randomBytes(4).toString('hex')}`;
  const process = await startServiceProcess('gateway-auth', port, {
    MONGO_DATABASE: database,
    REDIS_KEY_PREFIX: `${database}:`,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    ...env,
  });
  return {
    url: process.url,
    process,
    database,
    admin: apiClient(process.url, adminToken()),
    stop: async () => void (await process.stop()),
  };
}

export interface ConnectedApp {
  tenantId: string;
  tenant: ApiClient;
  appId: string;
  installationId: string;
  apiKey: string;
  webhookSecret: string | null;
}

let counter = 0;
const slug = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}-${++counter}`;

export async function createTenant(
  gw: TestGateway,
  profile: { currencyCode?: string; defaultLanguage?: string; sandbox?: boolean } = {},
): Promise<{ tenantId: string; tenant: ApiClient }> {
  const created = await gw.admin.call('POST', '/api/admin/v1/tenants', {
    slug: slug('t'),
    name: 'Test Bistro',
    currencyCode: 'EUR',
    defaultLanguage: 'en',
    ...profile,
  });
  if (created.status !== 201) throw new Error(`create tenant: ${created.status} ${JSON.stringify(created.body)}`);
  const token = await gw.admin.call('POST', `/api/admin/v1/tenants/${created.body.id}/tokens`, {});
  return { tenantId: created.body.id, tenant: apiClient(gw.url, token.body.token) };
}

/**
 * An app with one published ApiKey contract version granting `scopes`. A version with any
 * `Delivery.*` scope subscribes to `delivery.assigned` as well, which the gateway requires of a
 * delivery provider (added to `events` when missing).
 */
export async function publishApp(
  gw: TestGateway,
  scopes: string[],
  events: string[] = [],
  extra: Record<string, unknown> = {},
): Promise<{ appId: string; version: number }> {
  const app = await gw.admin.call('POST', '/api/admin/v1/apps', { slug: slug('app'), name: 'Test App' });
  if (app.status !== 201) throw new Error(`create app: ${app.status} ${JSON.stringify(app.body)}`);
  const subscribed =
    scopes.some((scope) => scope.startsWith('Delivery.')) && !events.includes('delivery.assigned')
      ? [...events, 'delivery.assigned']
      : events;
  const version = await gw.admin.call('POST', `/api/admin/v1/apps/${app.body.id}/versions`, {
    authType: 'ApiKey',
    scopes,
    subscribedEvents: subscribed,
    webhookUrl: subscribed.length > 0 ? 'https://partner.example.com/webhooks' : null,
    ...extra,
  });
  if (version.status !== 201) throw new Error(`create version: ${version.status} ${JSON.stringify(version.body)}`);
  const published = await gw.admin.call(
    'POST',
    `/api/admin/v1/apps/${app.body.id}/versions/${version.body.version}/publish`,
  );
  if (published.status !== 200) throw new Error(`publish: ${published.status}`);
  return { appId: app.body.id, version: version.body.version };
}

/** Tenant + app + install + connect: a partner with an API key. */
export async function connectedApp(
  gw: TestGateway,
  scopes: string[],
  events: string[] = [],
  tenant?: { tenantId: string; tenant: ApiClient },
): Promise<ConnectedApp> {
  const owner = tenant ?? (await createTenant(gw));
  const { appId, version } = await publishApp(gw, scopes, events);
  const installed = await owner.tenant.call('POST', '/api/tenant/v1/installations', {
    appId,
    contractVersion: version,
  });
  if (installed.status !== 201) throw new Error(`install: ${installed.status} ${JSON.stringify(installed.body)}`);
  const connected = await owner.tenant.call('POST', `/api/tenant/v1/installations/${installed.body.id}/connect`);
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${JSON.stringify(connected.body)}`);
  return {
    ...owner,
    appId,
    installationId: installed.body.id,
    apiKey: connected.body.credentials.apiKey,
    webhookSecret: connected.body.credentials.webhookSigningSecret,
  };
}

/** A Partner API call with an API key. */
export async function partnerCall(
  gw: TestGateway,
  apiKey: string | undefined,
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; text: string; headers: Headers }> {
  const res = await fetch(`${gw.url}/api/partner/v1${path}`, {
    method,
    headers: {
      ...(apiKey === undefined ? {} : { authorization: `ApiKey ${apiKey}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  try {
    if (options.body !== undefined) recordSecretsIn(JSON.parse(options.body)); // a driver's phone, say
  } catch {
    // not JSON: nothing to record
  }
  recordSecretsIn(body);
  recordErrorBody(res.status, method, text);
  return { status: res.status, body, text, headers: res.headers };
}
