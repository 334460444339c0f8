import { connect } from 'node:net';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { AppError, validationError } from '@marketplace/errors';
import { createLogger } from '@marketplace/logging';
import { context, trace } from '@opentelemetry/api';
import { startTracing } from '@marketplace/tracing';
import { createHttpApp, rawRequestBody, requestBody, type HttpApp, type HttpAppOptions } from './index';

startTracing({ serviceName: 'test' }); // no endpoint: context manager and W3C propagator only

const logLines: string[] = [];
const logger = createLogger({
  service: 'test',
  destination: new Writable({ write: (chunk, _e, done) => (logLines.push(String(chunk)), done()) }),
});

let server: Server;
let http: HttpApp | undefined;
let base: string;
let dependencyUp = true;

const database = {
  name: 'db',
  check: async () => {
    if (!dependencyUp) throw new Error('down');
  },
};
const hanging = { name: 'slow', check: () => new Promise(() => {}) };

async function start(options: Partial<HttpAppOptions> = {}) {
  http = createHttpApp({ service: 'test', logger, readinessChecks: [database], jsonLimit: '1kb', ...options });
  http.routes.post('/things', 'public', (ctx) => {
    const body = requestBody(ctx) as { name?: unknown } | undefined;
    if (typeof body?.name !== 'string')
      throw validationError('thing.invalid', 'The thing is invalid.', { name: ['is required'] });
    ctx.status = 201;
    ctx.body = { name: body.name };
  });
  http.routes.get('/callbacks/:callbackToken/events', 'public', (ctx) => {
    ctx.body = { ok: true };
  });
  http.routes.get('/trace', 'public', (ctx) => {
    ctx.body = { traceId: trace.getSpanContext(context.active())?.traceId };
  });
  http.routes.get('/ip', 'public', (ctx) => {
    ctx.body = { ip: ctx.ip };
  });
  http.routes.get('/boom', 'public', () => {
    throw new Error('database password is hunter2');
  });
  http.routes.get('/busy', 'public', () => {
    throw new AppError('rate_limited', 'rate_limited', 'Too many requests.', { retryAfterSeconds: 1.2 });
  });
  http.routes.post('/raw', 'public', (ctx) => {
    ctx.body = { raw: rawRequestBody(ctx), parsed: requestBody(ctx) };
  });
  http.routes.post('/guarded', 'partner', (ctx) => {
    ctx.body = { passed: true };
  });
  http.routes.guard('partner', async (ctx, next) => {
    if (ctx.get('x-stop') === 'yes')
      throw new AppError('unauthenticated', 'auth.unauthenticated', 'Missing or invalid credentials.');
    await next();
  });
  server = await http.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return http;
}

afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: string, type = 'application/json') =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': type }, body });

describe('createHttpApp', () => {
  it('answers /healthz and /metrics', async () => {
    await start();
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok', service: 'test' });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('process_cpu_user_seconds_total');
    expect(metrics).toContain('http_request_duration_seconds_bucket');
  });

  it('reports readiness from its checks and turns unready when a dependency fails', async () => {
    await start();
    dependencyUp = true;
    let res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', checks: { db: 'up' } });
    dependencyUp = false;
    res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unready', checks: { db: 'down' } });
    dependencyUp = true;
  });

  it('bounds a readiness check that never answers', async () => {
    await start({ readinessChecks: [database, hanging], readinessTimeoutMs: 100 });
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ checks: { db: 'up', slow: 'down' } });
  });

  it('reports a degrading check as degraded with its reason and stays ready; a failing dependency still turns it unready', async () => {
    let holding = true;
    const consumers = {
      name: 'consumers',
      degradesOnly: true,
      check: async () => {
        if (holding) throw new Error('orders[2]@7 held 31 s: installation copy behind');
      },
    };
    await start({ readinessChecks: [database, consumers] });
    dependencyUp = true;
    let res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      service: 'test',
      checks: { db: 'up', consumers: 'degraded' },
      details: { consumers: 'orders[2]@7 held 31 s: installation copy behind' },
    });
    dependencyUp = false;
    res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unready', checks: { db: 'down', consumers: 'degraded' } });
    dependencyUp = true;
    holding = false;
    res = await fetch(`${base}/readyz`);
    expect(await res.json()).toEqual({ status: 'ready', service: 'test', checks: { db: 'up', consumers: 'up' } });
  });

  it('runs a slow check once at a time: probes during a run wait for it instead of piling up new ones', async () => {
    let started = 0;
    let finish: () => void = () => undefined;
    const slow = { name: 'slow', check: () => (started++, new Promise<void>((resolve) => (finish = resolve))) };
    await start({ readinessChecks: [slow], readinessTimeoutMs: 50 });
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect(started).toBe(1);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const res = await fetch(`${base}/readyz`);
    expect(started).toBe(2); // the run ended: the next probe starts a fresh one
    expect(res.status).toBe(503); // and that one is slow again
    finish();
  });

  it('turns unready once the service stops accepting', async () => {
    const http = await start();
    http.stopAccepting();
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'stopping' });
  });

  it('maps validation errors to problem+json with field errors', async () => {
    await start();
    const res = await post('/things', '{}');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toEqual({
      type: '/docs/problems/thing.invalid',
      title: 'Bad Request',
      status: 400,
      detail: 'The thing is invalid.',
      code: 'thing.invalid',
      instance: '/things',
      errors: { name: ['is required'] },
    });
  });

  it('rejects malformed and oversized JSON with clear codes', async () => {
    await start();
    const malformed = await post('/things', '{"name":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'request.malformed' });
    const big = await post('/things', JSON.stringify({ name: 'x'.repeat(5000) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ status: 413, code: 'request.too_large' });
    // Small but hostile: nesting that would overflow a recursive walk is a 400, not a 500.
    const deep = await post('/things', `{"name":${'['.repeat(65)}${']'.repeat(65)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ status: 400, code: 'request.invalid' });
  });

  it('hides unexpected errors behind a generic 500 and logs them', async () => {
    await start();
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toMatch(/at .*\.ts/);
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: 'internal' });
    expect(logLines.some((l) => l.includes('unhandled error'))).toBe(true);
  });

  it('answers unknown routes with a problem+json 404 and wrong methods with 405', async () => {
    await start();
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, code: 'resource.not_found' });
    const wrong = await fetch(`${base}/things`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    const unknownMethod = await fetch(`${base}/things`, { method: 'QUERY' });
    expect(unknownMethod.status).toBe(405);
    expect(await unknownMethod.json()).toMatchObject({ status: 405, code: 'request.method_not_allowed' });
    expect(unknownMethod.headers.get('allow')).toBe('POST');
    expect(wrong.headers.get('allow')).toBeTruthy();
  });

  it('refuses a body that is not JSON with 415', async () => {
    await start();
    const res = await post('/things', 'name=x', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ status: 415, code: 'request.unsupported_media_type' });
    expect((await post('/things', '{"name":"x"}', 'application/json; charset=utf-8')).status).toBe(201);
    expect((await post('/things', '{"name":"x"}', 'text/plain')).status).toBe(415);
  });

  it('accepts every JSON media type the Partner API lists and keeps the raw text', async () => {
    await start();
    for (const type of [
      'application/json',
      'text/json',
      'application/merge-patch+json',
      'application/vnd.partner+json; charset=utf-8',
    ]) {
      const res = await post('/raw', '{ "b": 1,  "a": [2] }', type);
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
      expect(await res.json()).toEqual({ raw: '{ "b": 1,  "a": [2] }', parsed: { b: 1, a: [2] } });
    }
  });

  it("runs the route's audience guard before the body is read", async () => {
    await start();
    // A malformed body would be a 400: the guard answers first.
    const res = await fetch(`${base}/guarded`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stop': 'yes' },
      body: '{nope',
    });
    expect(res.status).toBe(401);
    expect((await post('/guarded', '{"name":"x"}', 'application/json')).status).toBe(200);
    expect((await post('/guarded', '{nope', 'application/json')).status).toBe(400);
  });

  it('matches paths case-sensitively and strictly, and refuses non-canonical spellings', async () => {
    await start();
    // (fetch resolves dot segments itself: the hostile suite sends those on a raw socket)
    for (const path of ['/THINGS', '/Things', '/things/', '/things//', '/x%2Fthings', '/th%5cings', '/%74hings']) {
      const res = await post(path, '{"name":"x"}', 'application/json');
      expect({ path, status: res.status }).toEqual({ path, status: expect.any(Number) });
      expect({ path, ok: res.status >= 400 && res.status < 500 }).toEqual({ path, ok: true });
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await post('/things', '{"name":"x"}', 'application/json')).status).toBe(201);
  });

  it('answers what Node refuses before the app (a bad request line, headers too large) in the error shape', async () => {
    for (const format of ['problem', 'envelope'] as const) {
      await start({ errorFormat: format });
      const address = server.address() as AddressInfo;
      const bad = await rawExchange(address.port, 'GARBAGE\r\n\r\n');
      expect(bad).toMatch(/^HTTP\/1\.1 400 /);
      const big = await rawExchange(
        address.port,
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(big).toMatch(/^HTTP\/1\.1 431 /);
      const body = JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4));
      if (format === 'problem') {
        expect(big).toContain('Content-Type: application/problem+json');
        expect(body).toMatchObject({ status: 431, code: 'request.headers_too_large' });
      } else {
        expect(body).toEqual({ code: 'request.headers_too_large', message: expect.any(String), retryable: false });
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await start(); // afterEach closes it
  });

  it('keeps secrets in route parameters and query strings out of the access log', async () => {
    await start();
    logLines.length = 0;
    await fetch(`${base}/callbacks/tok-very-secret/events?code=oauth-code&state=s1`);
    await fetch(`${base}/callbacks/%74ok-very-secret/events`); // the same value, spelt otherwise
    const entries = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(entries).toHaveLength(2);
    for (const entry of entries)
      expect(entry).toMatchObject({
        path: '/callbacks/[redacted]/events',
        route: '/callbacks/:callbackToken/events',
        status: 200,
      });
    expect(logLines.join('')).not.toMatch(/very-secret|oauth-code/);
  });

  it('rounds Retry-After up to whole seconds', async () => {
    await start();
    const res = await fetch(`${base}/busy`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
  });

  it('keeps a well-formed request id and replaces a hostile one', async () => {
    await start();
    const kept = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'a b<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ignores X-Forwarded-For unless told to trust a proxy', async () => {
    await start();
    const direct = (await (await fetch(`${base}/ip`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).json()) as {
      ip: string;
    };
    expect(direct.ip).toMatch(/127\.0\.0\.1$/);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await start({ trustProxy: true });
    const proxied = (await (await fetch(`${base}/ip`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).json()) as {
      ip: string;
    };
    expect(proxied.ip).toBe('203.0.113.9');
  });

  it("continues the caller's trace, or starts one, and logs its id with the request", async () => {
    await start();
    logLines.length = 0;
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const continued = (await (
      await fetch(`${base}/trace`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } })
    ).json()) as { traceId: string };
    expect(continued.traceId).toBe(traceId);
    const started = (await (await fetch(`${base}/trace`)).json()) as { traceId: string };
    expect(started.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(started.traceId).not.toBe(traceId);
    const logged = logLines
      .map((l) => JSON.parse(l) as { msg: string; traceId?: string })
      .filter((l) => l.msg === 'request');
    expect(logged.map((l) => l.traceId)).toEqual([traceId, started.traceId]);
  });

  it('uses the provider error envelope when asked', async () => {
    await start({ errorFormat: 'envelope' });
    const res = await post('/things', '{}');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({
      code: 'thing.invalid',
      message: 'The thing is invalid.',
      retryable: false,
      fieldErrors: { name: ['is required'] },
    });
  });
});

/** Sends raw bytes on a fresh socket and returns everything the server wrote before it closed. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}
