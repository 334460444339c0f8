import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { recordIssuedSecret, repoRoot } from '@marketplace/testing';

/**
 * Test helpers for the OAuth2 connect flow: a real authorization server (in its own process, as
 * oidc-provider is ESM-only) and a scripted browser that walks the authorization redirects the way
 * a restaurant's browser would. The server's script is not named oauth-server.mjs because jest
 * resolves `./oauth-server` to a .mjs before a .ts.
 */
export interface TestOAuthServer {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  stop(): Promise<void>;
}

export interface OAuthServerOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  authMethod?: 'client_secret_basic' | 'client_secret_post';
  /** The partner API scopes the server knows (default orders:write orders:read). */
  scopes?: string[];
  startTimeoutMs?: number;
}

const script = join(repoRoot, 'services', 'gateway-auth', 'test', 'support', 'oauth-authorization-server.mjs');

export async function startOAuthServer(options: OAuthServerOptions): Promise<TestOAuthServer> {
  recordIssuedSecret('OAuth client secret', options.clientSecret); // for the secrets audit
  const child = spawn(process.execPath, [script], {
    env: {
      PATH: process.env.PATH,
      OAUTH_CLIENT_ID: options.clientId,
      OAUTH_CLIENT_SECRET: options.clientSecret,
      OAUTH_REDIRECT_URIS: options.redirectUri,
      OAUTH_AUTH_METHOD: options.authMethod ?? 'client_secret_basic',
      ...(options.scopes ? { OAUTH_SCOPES: options.scopes.join(' ') } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // oidc-provider warns on stderr about the Node.js line and its in-memory store; kept, and shown
  // only when the server fails to start.
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  // The codes and tokens the server issues, one JSON line each, go to the run's issued secrets.
  let pending = '';
  child.stdout.on('data', (chunk) => {
    const lines = (pending + String(chunk)).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{"issued"')) continue;
      try {
        const { issued } = JSON.parse(line) as { issued: { kind: string; value: string } };
        recordIssuedSecret(issued.kind, issued.value);
      } catch {
        // not one of ours
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timeoutMs = options.startTimeoutMs ?? 15_000;

  const endpoints = await new Promise<Omit<TestOAuthServer, 'stop'>>((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`test OAuth server ${why}; stderr: ${stderr.slice(-2000) || '(empty)'}`));
    };
    const timer = setTimeout(() => fail(`printed no endpoints within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`exited (${code ?? signal}) before listening`);
    child.once('exit', onExit);
    child.once('error', (error) => fail(`could not be started: ${error.message}`));
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      const line = stdout.split('\n').find((l, i, all) => i < all.length - 1 && l.startsWith('{'));
      if (!line || settled) return;
      let parsed: Omit<TestOAuthServer, 'stop'>;
      try {
        parsed = JSON.parse(line) as Omit<TestOAuthServer, 'stop'>;
      } catch {
        return fail(`printed a line that is not JSON: ${line.slice(0, 200)}`);
      }
      settled = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(parsed);
    });
  });

  return {
    ...endpoints,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Plays the restaurant's browser: requests the authorization URL and follows redirects (keeping
 * cookies, as the authorization server's interaction session lives in them) until one points at
 * the client's redirect URI. Returns that callback URL without requesting it. The redirect URI is
 * taken from the authorization URL's redirect_uri unless given. `deny` adds login_hint=deny, which
 * the test server answers with access_denied.
 */
export async function followAuthorization(
  authorizationUrl: string,
  options: { deny?: boolean; timeoutMs?: number; redirectUri?: string; maxHops?: number } = {},
): Promise<string> {
  const start = new URL(authorizationUrl);
  if (options.deny) start.searchParams.set('login_hint', 'deny');
  const redirectUri = options.redirectUri ?? start.searchParams.get('redirect_uri');
  if (!redirectUri)
    throw new Error('followAuthorization: no redirectUri given and the authorization URL has no redirect_uri');
  const callback = new URL(redirectUri);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  const maxHops = options.maxHops ?? 10;
  const jar = new CookieJar();

  let url = start;
  for (let hop = 1; hop <= maxHops; hop++) {
    const where = `followAuthorization hop ${hop} (GET ${url.origin}${url.pathname})`;
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error(`${where}: timed out after ${timeoutMs} ms in all`);
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        headers: jar.header(url),
        signal: AbortSignal.timeout(remaining),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new Error(`${where}: ${timedOut ? `timed out after ${timeoutMs} ms in all` : (error as Error).message}`);
    }
    jar.store(url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || !location) {
      const body = await response.text().catch(() => '');
      throw new Error(`${where}: expected a redirect, got HTTP ${response.status}: ${body.slice(0, 500)}`);
    }
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, url);
    if (next.origin === callback.origin && next.pathname === callback.pathname) return next.toString();
    url = next;
  }
  throw new Error(`followAuthorization: no redirect to ${callback.origin}${callback.pathname} within ${maxHops} hops`);
}

/** Just enough of RFC 6265 for one authorization server: name, path, deletion. */
class CookieJar {
  private readonly cookies = new Map<string, { origin: string; name: string; value: string; path: string }>();

  store(url: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = url.pathname.slice(0, url.pathname.lastIndexOf('/')) || '/';
      let expired = false;
      for (const attribute of attributes) {
        const [key = '', val = ''] = attribute.split('=', 2);
        if (key.toLowerCase() === 'path' && val.startsWith('/')) path = val;
        if (key.toLowerCase() === 'max-age' && Number(val) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && Date.parse(val) <= Date.now()) expired = true;
      }
      const key = `${url.origin} ${path} ${name}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { origin: url.origin, name, value, path });
    }
  }

  header(url: URL): Record<string, string> {
    const matching = [...this.cookies.values()].filter(
      (c) =>
        c.origin === url.origin &&
        (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)),
    );
    return matching.length ? { cookie: matching.map((c) => `${c.name}=${c.value}`).join('; ') } : {};
  }
}
