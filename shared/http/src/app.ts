import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { answerClientError } from './client-error';
import { context } from '@opentelemetry/api';
import Koa from 'koa';
import coBody from 'co-body';
import { AppError } from '@marketplace/errors';
import { isRedactedKey, REDACTED, type Logger } from '@marketplace/logging';
import { type ErrorFormat, formatError, HttpLayerError, statusOf, toAppError } from './error-format';
import { createMetrics, type Metrics } from './metrics';
import { type ReadinessCheck, type ReadinessReport, runReadinessChecks, singleFlight } from './readiness';
import { ReadinessMetrics } from './readiness-metrics';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from './json-depth';
import { requestTraceContext, traceIdOf } from './trace-context';
import { RouteDeclarationError, RouteTable, type RequestState, type RouteMiddleware } from './route-table';
import { nonCanonicalPath } from './canonical-path';
import { PROBE_ROUTES } from './probe-routes';

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  readinessChecks?: ReadinessCheck[];
  errorFormat?: ErrorFormat;
  /** Largest JSON body accepted; larger bodies get 413. */
  jsonLimit?: string;
  readinessTimeoutMs?: number;
  metrics?: Metrics;
  /** Believe X-Forwarded-For/-Proto (only behind a proxy that sets them); off by default, since a
   * client could otherwise choose its own IP address, and so its rate-limit bucket. */
  trustProxy?: boolean;
  /** Longest time a client may take to send its request headers (default 10 s; see listen). */
  headersTimeoutMs?: number;
  /** Longest time a client may take to send its whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
}

/**
 * Largest request head accepted (request line and headers together); a larger one is answered 431
 * and the connection closed by Node's parser. Node's own default, written here so that it is a
 * decision: our clients send a handful of short headers.
 */
const MAX_HEADER_BYTES = 16 * 1024;

export type { RequestState };

export type AppContext = Koa.ParameterizedContext<RequestState>;

/** The parsed JSON body (undefined when there was none); validate it before use. */
export function requestBody(ctx: Koa.Context | AppContext): unknown {
  return (ctx.request as { body?: unknown }).body;
}

/** The body's exact text as received (undefined when there was none), for proxying and hashing. */
export function rawRequestBody(ctx: Koa.Context | AppContext): string | undefined {
  return (ctx.request as { rawBody?: string }).rawBody;
}

/** The JSON media types the Partner API accepts: application/json, text/json, application/*+json. */
export const JSON_MEDIA_TYPES = ['application/json', 'text/json', 'application/*+json'];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const PROBE_PATHS = new Set(PROBE_ROUTES.map((route) => route.path));
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(ctx: Koa.Context): boolean {
  const length = ctx.get('content-length');
  return (length !== '' && length !== '0') || ctx.get('transfer-encoding') !== '';
}

/**
 * The path for the access log: never the query string (OAuth codes and state travel there). For a
 * matched route it is rebuilt from the route pattern, with parameters of a sensitive name (a
 * callback `:token`, say) replaced by the central list, so no spelling of the value can slip by.
 */
function loggablePath(ctx: Koa.Context): string {
  const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute;
  if (!route) return ctx.path;
  const params = (ctx as unknown as { params?: Record<string, string> }).params ?? {};
  return route.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    isRedactedKey(name) ? REDACTED : encodeURIComponent(params[name] ?? ''),
  );
}

/** Whether the app still takes new work: false once the stop begins (readiness false, connections close). */
interface Accepting {
  accepting: boolean;
}

/** What the app's stages share: the options resolved to their defaults. */
interface AppSettings {
  service: string;
  logger: Logger;
  errorFormat: ErrorFormat;
  metrics: Metrics;
  state: Accepting;
}

/**
 * The first middleware, around everything: request id, the request's logger and trace, errors
 * mapped to the service's documented shape, the duration metric and the access log.
 */
function requestEnvelope({ logger, errorFormat, metrics, state }: AppSettings): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const traceContext = requestTraceContext(ctx.headers);
    ctx.state.log = logger.child({ requestId: ctx.state.requestId, traceId: traceIdOf(traceContext) });
    ctx.set('X-Request-Id', ctx.state.requestId);
    // Stopping: answer, then close the connection, so no client sends its next request on a
    // connection that is about to be closed under it.
    if (!state.accepting) ctx.set('Connection', 'close');
    try {
      // Everything downstream (use cases, published events) runs in the request's trace.
      await context.with(traceContext, next);
      if (ctx.status === 404 && ctx.body === undefined) throw toAppError({ status: 404 });
      // The router answered a wrong method (405) or one it knows nowhere, such as TRACE (501), with
      // its Allow header: keep the header; to the client both are "not allowed here", never a 5xx.
      if ((ctx.status === 405 || ctx.status === 501) && !ctx.body) throw toAppError({ status: 405 });
    } catch (error) {
      respondWithError(ctx, error, errorFormat, metrics);
    } finally {
      logRequest(ctx, Number(process.hrtime.bigint() - started) / 1e9, metrics);
    }
  };
}

function respondWithError(ctx: AppContext, thrown: unknown, errorFormat: ErrorFormat, metrics: Metrics) {
  const error = toAppError(thrown);
  const status = statusOf(error);
  if (status >= 500 && error.kind === 'internal') ctx.state.log.error({ err: thrown }, 'unhandled error');
  else if (status >= 500) ctx.state.log.warn({ err: thrown }, 'dependency unavailable');
  const response = formatError(error, errorFormat, ctx.path);
  metrics.httpErrors.inc({ status: String(response.status), code: error.code });
  ctx.status = response.status;
  ctx.set(response.headers);
  ctx.body = response.body;
  ctx.type = response.contentType;
}

/** The duration metric by route, and the access log line (probes at debug level). */
function logRequest(ctx: AppContext, seconds: number, metrics: Metrics) {
  const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
  metrics.httpDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
  const entry = {
    method: ctx.method,
    path: loggablePath(ctx),
    route,
    status: ctx.status,
    durationMs: Math.round(seconds * 1e4) / 10,
  };
  if (PROBE_PATHS.has(ctx.path)) ctx.state.log.debug(entry, 'request');
  else ctx.state.log.info(entry, 'request');
}

/**
 * Bodies are JSON or nothing: anything else is refused before it is read (415). The raw text is
 * kept beside the parsed value (a proxy forwards it untouched; idempotency hashes it). It runs in
 * each route, after the route's audience guard: nothing of a body is read before its caller is known.
 */
function jsonBodyReader(jsonLimit: string): RouteMiddleware {
  return async (ctx, next) => {
    if (BODY_METHODS.has(ctx.method) && hasBody(ctx)) {
      if (!ctx.is(JSON_MEDIA_TYPES)) throw toAppError({ status: 415 });
      const { parsed, raw } = (await coBody.json(ctx.req, { limit: jsonLimit, strict: true, returnRawBody: true })) as {
        parsed: unknown;
        raw: string;
      };
      if (jsonNestedDeeperThan(raw)) {
        throw new AppError(
          'validation',
          'request.invalid',
          `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
        );
      }
      (ctx.request as { body?: unknown }).body = parsed;
      (ctx.request as { rawBody?: string }).rawBody = raw;
    }
    await next();
  };
}

/**
 * A path that is not in canonical form (dot segments, empty segments, encoded dots, slashes or
 * backslashes) names no route of ours, and a proxy could resolve it into another: refused before
 * routing, so that no spelling of a path reaches a handler under another name.
 */
const canonicalPathGuard: Koa.Middleware<RequestState> = async (ctx, next) => {
  const problem = nonCanonicalPath(ctx.path);
  if (problem) throw new HttpLayerError(400, 'request.path_invalid', `The request path is not canonical: ${problem}.`);
  await next();
};

/**
 * Runs the checks, logs what changed and records the result in the readiness metrics. A check
 * that changes state is logged once, with why it failed: a probe that keeps answering 503 must
 * say what it waits for.
 */
function readinessEvaluator(
  { logger, metrics, state }: AppSettings,
  checks: ReadinessCheck[],
  readinessTimeoutMs: number,
): () => Promise<{ report: ReadinessReport; ready: boolean }> {
  const lastStates = new Map<string, string>();
  function logChanges(report: ReadinessReport) {
    for (const [name, checkState] of Object.entries(report.checks)) {
      const before = lastStates.get(name) ?? 'up';
      lastStates.set(name, checkState);
      if (checkState === before) continue;
      if (checkState === 'up') logger.info({ check: name, was: before }, `readiness check ${name} is up again`);
      else
        logger.warn(
          { check: name, state: checkState, reason: report.failures[name] },
          `readiness check ${name} is ${checkState}`,
        );
    }
  }
  async function evaluateReadiness() {
    const report = await runReadinessChecks(checks, readinessTimeoutMs);
    logChanges(report);
    const ready = report.ready && state.accepting;
    readinessMetrics.record(report, ready);
    return { report, ready };
  }
  const readinessMetrics = new ReadinessMetrics(metrics.registry, async () => void (await evaluateReadiness()));
  return evaluateReadiness;
}

/** /healthz, /readyz (the checks, and `stopping` once the stop began) and /metrics. */
function declareProbeRoutes(
  routes: RouteTable,
  settings: AppSettings,
  checks: ReadinessCheck[],
  readinessTimeoutMs: number,
) {
  const { service, metrics, state } = settings;
  routes.get('/healthz', 'probe', (ctx) => {
    ctx.body = { status: 'ok', service };
  });
  const evaluateReadiness = readinessEvaluator(settings, checks, readinessTimeoutMs);
  routes.get('/readyz', 'probe', async (ctx) => {
    const { report, ready } = await evaluateReadiness();
    ctx.status = ready ? 200 : 503;
    const details = Object.fromEntries(
      Object.entries(report.failures).filter(([name]) => report.checks[name] === 'degraded'),
    );
    ctx.body = {
      status: ready ? 'ready' : state.accepting ? 'unready' : 'stopping',
      service,
      checks: report.checks,
      ...(Object.keys(details).length > 0 ? { details } : {}),
    };
  });
  routes.get('/metrics', 'probe', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
}

/** Starts the HTTP server of the app on port and host, with its bounds on slow clients. */
function listenWith(
  app: Koa<RequestState>,
  options: Pick<HttpAppOptions, 'requestTimeoutMs' | 'headersTimeoutMs'>,
  errorFormat: ErrorFormat,
  port: number,
  host: string,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Slow clients are bounded: a head not complete within headersTimeout (a connection opened
    // and left silent included) or a request not complete within requestTimeout (a body
    // trickled a byte a second) is answered 408 and its connection closed. Node's defaults (60 s
    // and 5 min, checked only every 30 s) would let a few hundred such sockets sit for minutes.
    const requestTimeout = options.requestTimeoutMs ?? 30_000;
    const server = createServer(
      {
        requestTimeout,
        headersTimeout: Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout), // Node requires ≤
        connectionsCheckingInterval: 1000,
        maxHeaderSize: MAX_HEADER_BYTES,
      },
      app.callback(),
    );
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
      answerClientError(error, socket, errorFormat),
    );
    server.listen(port, host);
    server.keepAliveTimeout = 65_000;
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

/**
 * A Koa app with what every service needs: request id, access log, metrics, JSON bodies with a
 * size limit, errors mapped to the service's documented shape (never a stack trace), and the
 * /healthz, /readyz and /metrics endpoints. Services declare their routes, each with its audience, on `routes`.
 */
export function createHttpApp(options: HttpAppOptions) {
  const { service, logger, errorFormat = 'problem', readinessTimeoutMs = 2000 } = options;
  const jsonLimit = options.jsonLimit ?? '256kb';
  const metrics = options.metrics ?? createMetrics(service);
  const checks = (options.readinessChecks ?? []).map(singleFlight);
  const app = new Koa<RequestState>();
  app.proxy = options.trustProxy ?? false;
  app.silent = true; // errors are logged by our own middleware, once
  const settings: AppSettings = { service, logger, errorFormat, metrics, state: { accepting: true } };

  // In this order: the envelope around everything, then the path check, then (at mount) the routes.
  app.use(requestEnvelope(settings));
  const routes = new RouteTable([jsonBodyReader(jsonLimit)]);
  app.use(canonicalPathGuard);
  declareProbeRoutes(routes, settings, checks, readinessTimeoutMs);

  let mounted = false;
  /**
   * Call after the service has declared its routes and guards (listen does it too). Throws
   * RouteDeclarationError when a route has no audience the service can check: the service does not start.
   */
  function mount() {
    if (mounted) return;
    const router = routes.mount();
    mounted = true;
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  async function listen(port: number, host: string): Promise<Server> {
    mount();
    return listenWith(app, options, errorFormat, port, host);
  }

  /**
   * Readiness turns false at once and every answer from then on closes its connection; the caller
   * then closes the server and waits for requests.
   */
  function stopAccepting() {
    settings.state.accepting = false;
  }

  return { app, routes, metrics, listen, mount, stopAccepting };
}

export type HttpApp = ReturnType<typeof createHttpApp>;
export { AppError, RouteDeclarationError, answerClientError };
