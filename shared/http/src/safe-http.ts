import { promises as dns, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { isInternalAddress, isLoopbackHost } from './outbound-address';

export interface SafeHttpOptions {
  connectTimeoutMs: number; // e.g. 3000
  responseTimeoutMs: number; // time from request sent to full (limited) response, e.g. 10000
  maxResponseBytes: number; // e.g. 4096: read at most this much of the body, then stop reading
  allowLoopbackHttp: boolean; // local/test only: plain http and loopback addresses allowed
  /** Resolver, injectable for tests (default: dns.promises.lookup with all: true). */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
  /** Extra CA certificates (tests with a self-signed HTTPS receiver). */
  ca?: string | Buffer;
}

export type NetworkErrorClass = 'timeout' | 'connect' | 'dns' | 'refused_address' | 'tls' | 'reset' | 'other';

export type SafePostResult =
  | { kind: 'response'; status: number; latencyMs: number; bodyPreview: string; retryAfter: string | null }
  | { kind: 'network'; errorClass: NetworkErrorClass; message: string; latencyMs: number };

/** One call of `request`: any method, an optional body with its type, per-call bounds. */
export interface SafeRequestOptions {
  method?: string; // default GET, or POST when there is a body
  headers?: Record<string, string>;
  /** The exact bytes to send and their Content-Type (a caller's own Content-Type header is dropped). */
  body?: { bytes: Buffer | string; contentType: string };
  /** One deadline for this call: name lookup, connect and the whole response (the client's own bounds still apply). */
  timeoutMs?: number;
  /** Read at most this much of the body (default: the client's `maxResponseBytes`). */
  maxResponseBytes?: number;
}

export type SafeRequestResult =
  | {
      kind: 'response';
      status: number;
      latencyMs: number;
      headers: http.IncomingHttpHeaders;
      /** The body, at most the limit's bytes of it. */
      body: Buffer;
      /** The response body was longer than the limit: `body` is cut short and the rest was not read. */
      truncated: boolean;
    }
  | { kind: 'network'; errorClass: NetworkErrorClass; message: string; latencyMs: number };

interface CheckedTarget {
  url: URL;
  hostname: string; // without IPv6 brackets
  address: string; // the checked address the socket must connect to
  family: 4 | 6;
}

interface SendRequest {
  method: string;
  headers: Record<string, string>;
  body: { bytes: Buffer; contentType: string } | undefined;
  maxResponseBytes: number;
  /** Stop reading once `maxResponseBytes` arrived (webhooks), or read on to learn whether there is more. */
  stopAtLimit: boolean;
  /** performance.now() by which the whole call must be done (Infinity: only the client's bounds). */
  deadlineAt: number;
}

interface SendResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

/** A failure we classify ourselves (policy refusals, our own timers). */
class SafeHttpFailure extends Error {
  constructor(
    readonly errorClass: NetworkErrorClass,
    message: string,
  ) {
    super(message);
  }
}

const defaultResolve = async (hostname: string): Promise<Array<{ address: string; family: number }>> =>
  dns.lookup(hostname, { all: true });

const MAX_SOCKETS = 50;

/**
 * HTTP client for calls to partner-supplied URLs (webhook receivers, provider callbacks, a
 * partner's OAuth token endpoint): `post` for webhooks, `request` for any other call. Only absolute https URLs;
 * the name is resolved once, every returned address is checked (one internal address refuses the
 * call), and the socket connects to exactly the checked address (a pinned `lookup`), while the
 * original hostname stays in the Host header and is used for TLS SNI and the certificate check.
 * Redirects are not followed, at most `maxResponseBytes` of a body are read, connect and response
 * times are bounded. With `allowLoopbackHttp` (local and test setups only) loopback addresses are
 * allowed, over http or https; other internal ranges stay refused.
 *
 * Header values and bodies carry signatures: they never appear in results or messages.
 */
export class SafeHttpClient {
  private readonly resolve: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: SafeHttpOptions) {
    this.resolve = options.resolve ?? defaultResolve;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
    this.httpsAgent = new https.Agent({
      keepAlive: true,
      maxSockets: MAX_SOCKETS,
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    });
  }

  /**
   * POSTs the exact body bytes with the given headers and `contentType` (application/json unless
   * told: a caller's own Content-Type header is dropped, so the body's type is always set here).
   * Never throws for network problems: returns a result.
   */
  async post(
    url: string,
    headers: Record<string, string>,
    body: Buffer,
    contentType = 'application/json',
  ): Promise<SafePostResult> {
    const started = performance.now();
    const latencyMs = (): number => Math.round(performance.now() - started);
    try {
      const target = await this.checkedTarget(url, Infinity);
      const response = await this.send(target, {
        method: 'POST',
        headers,
        body: { bytes: body, contentType },
        maxResponseBytes: this.options.maxResponseBytes,
        stopAtLimit: true,
        deadlineAt: Infinity,
      });
      const retryAfter = response.headers['retry-after'];
      return {
        kind: 'response',
        status: response.status,
        latencyMs: latencyMs(),
        bodyPreview: response.body.toString('utf8'),
        // Only read where a kind's policy honours it (provider callbacks; see retry-policy.ts).
        retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
      };
    } catch (err) {
      const { errorClass, message } = classify(err);
      return { kind: 'network', errorClass, message, latencyMs: latencyMs() };
    }
  }

  /**
   * A request of any method under the same rules as `post` (checked and pinned address, no
   * redirects followed, bounded times and body), e.g. a form POST to a partner's OAuth token
   * endpoint. Hands back the status, the headers and at most the limit's bytes of the body, saying
   * whether there was more. Never throws for network problems: returns a result.
   */
  async request(url: string, options: SafeRequestOptions = {}): Promise<SafeRequestResult> {
    const started = performance.now();
    const latencyMs = (): number => Math.round(performance.now() - started);
    const deadlineAt = options.timeoutMs === undefined ? Infinity : started + options.timeoutMs;
    const body = options.body && {
      bytes: Buffer.isBuffer(options.body.bytes) ? options.body.bytes : Buffer.from(options.body.bytes, 'utf8'),
      contentType: options.body.contentType,
    };
    try {
      const target = await this.checkedTarget(url, deadlineAt);
      const {
        status,
        headers,
        body: responseBody,
        truncated,
      } = await this.send(target, {
        method: options.method ?? (body ? 'POST' : 'GET'),
        headers: options.headers ?? {},
        body,
        maxResponseBytes: options.maxResponseBytes ?? this.options.maxResponseBytes,
        stopAtLimit: false,
        deadlineAt,
      });
      return { kind: 'response', status, latencyMs: latencyMs(), headers, body: responseBody, truncated };
    } catch (err) {
      const { errorClass, message } = classify(err);
      return { kind: 'network', errorClass, message, latencyMs: latencyMs() };
    }
  }

  /** Closes kept-alive sockets. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private async checkedTarget(raw: string, deadlineAt: number): Promise<CheckedTarget> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new SafeHttpFailure('refused_address', 'URL is not an absolute URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new SafeHttpFailure('refused_address', `URL scheme ${url.protocol} is not allowed (https required)`);
    }
    if (url.protocol === 'http:' && !this.options.allowLoopbackHttp) {
      throw new SafeHttpFailure('refused_address', 'plain http is not allowed (https required)');
    }
    if (url.username || url.password) {
      throw new SafeHttpFailure('refused_address', 'URL must not contain credentials');
    }
    const hostname = url.hostname.replace(/^\[|\]$/g, '');

    const addresses = isIP(hostname)
      ? [{ address: hostname, family: isIP(hostname) }]
      : await this.lookup(hostname, deadlineAt);
    if (addresses.length === 0) throw new SafeHttpFailure('dns', `no address found for ${hostname}`);
    for (const { address } of addresses) {
      if (!isIP(address)) throw new SafeHttpFailure('dns', `resolver returned an invalid address for ${hostname}`);
      const loopback = isLoopbackHost(address);
      if (loopback && this.options.allowLoopbackHttp) continue;
      if (loopback || isInternalAddress(address)) {
        const what = hostname === address ? address : `${hostname} resolves to ${address}, which`;
        throw new SafeHttpFailure('refused_address', `${what} is a loopback, private or internal address`);
      }
      if (url.protocol === 'http:') {
        throw new SafeHttpFailure(
          'refused_address',
          `plain http is allowed only to loopback addresses (${hostname} → ${address}); https required`,
        );
      }
    }
    const chosen = addresses[0]!;
    return { url, hostname, address: chosen.address, family: isIP(chosen.address) === 6 ? 6 : 4 };
  }

  private async lookup(hostname: string, deadlineAt: number): Promise<Array<{ address: string; family: number }>> {
    let timer: NodeJS.Timeout | undefined;
    const { connectTimeoutMs } = this.options;
    const limit = within(connectTimeoutMs, deadlineAt);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            limit < connectTimeoutMs
              ? new SafeHttpFailure('timeout', `DNS lookup of ${hostname} did not finish within the call's deadline`)
              : new SafeHttpFailure('dns', `DNS lookup of ${hostname} timed out after ${connectTimeoutMs} ms`),
          ),
        limit,
      );
    });
    try {
      return await Promise.race([this.resolve(hostname), timeout]);
    } catch (err) {
      if (err instanceof SafeHttpFailure) throw err;
      const code = errorCode(err);
      throw new SafeHttpFailure('dns', `DNS lookup of ${hostname} failed${code ? ` (${code})` : ''}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private send(target: CheckedTarget, request: SendRequest): Promise<SendResult> {
    const requestOptions = this.requestOptionsFor(target, request);
    const isHttps = target.url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const exchange = new Exchange(resolve, reject);
      let req: http.ClientRequest;
      try {
        req = (isHttps ? https : http).request(requestOptions);
      } catch (err) {
        // e.g. an invalid header value: report the code only, never the header.
        const code = errorCode(err);
        reject(new SafeHttpFailure('other', `request could not be built${code ? ` (${code})` : ''}`));
        return;
      }
      exchange.watch(req, target, request, this.options);
      req.end(request.body?.bytes);
    });
  }

  /** The request's options: the checked address pinned, the caller's headers with the body's own. */
  private requestOptionsFor(target: CheckedTarget, request: SendRequest): https.RequestOptions {
    const isHttps = target.url.protocol === 'https:';
    return {
      method: request.method,
      protocol: target.url.protocol,
      hostname: target.hostname,
      port: target.url.port || (isHttps ? 443 : 80),
      path: `${target.url.pathname}${target.url.search}`,
      headers: outgoingHeaders(request),
      lookup: pinnedLookup(target),
      agent: isHttps ? this.httpsAgent : this.httpAgent,
      ...(isHttps && !isIP(target.hostname) ? { servername: target.hostname } : {}),
      ...(isHttps && this.options.ca !== undefined ? { ca: this.options.ca } : {}),
    };
  }
}

/** Connect to exactly the address that was checked: no second resolution (DNS rebinding). */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family } satisfies LookupAddress]);
    else callback(null, target.address, target.family);
  };
}

/** The caller's headers, less those that describe the body or the host (ours are set), plus the body's. */
function outgoingHeaders({ headers: given, body }: SendRequest): Record<string, string | number> {
  const headers: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(given)) {
    const lower = name.toLowerCase();
    if (lower === 'content-type' || lower === 'content-length' || lower === 'transfer-encoding' || lower === 'host')
      continue;
    headers[name] = value;
  }
  if (body) {
    headers['content-type'] = body.contentType;
    headers['content-length'] = body.bytes.length;
  }
  return headers;
}

/** How one exchange ends: a response (possibly cut at the limit) or a failure. */
type Outcome = ({ ok: true } & SendResult) | { ok: false; error: unknown };

/**
 * One request on the wire, settled once: by the response, an error, or one of its two timers
 * (connect, then the complete response), each bounded by the call's deadline too.
 */
class Exchange {
  private settled = false;
  private connectTimer: NodeJS.Timeout | undefined;
  private responseTimer: NodeJS.Timeout | undefined;
  private req: http.ClientRequest | undefined;

  constructor(
    private readonly resolve: (result: SendResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** Arms the connect timer and listens to the request until it settles. */
  watch(
    req: http.ClientRequest,
    target: CheckedTarget,
    { maxResponseBytes, stopAtLimit, deadlineAt }: SendRequest,
    { connectTimeoutMs, responseTimeoutMs }: SafeHttpOptions,
  ): void {
    this.req = req;
    const connectLimit = within(connectTimeoutMs, deadlineAt);
    this.connectTimer = setTimeout(
      () =>
        this.fail(
          new SafeHttpFailure(
            'timeout',
            `connect to ${target.hostname} (${target.address}) timed out after ${connectLimit} ms`,
          ),
        ),
      connectLimit,
    );
    const startResponseTimer = () => this.startResponseTimer(responseTimeoutMs, deadlineAt);
    req.on('socket', (socket: Socket) => {
      if (socket.connecting) socket.once('connect', startResponseTimer);
      else startResponseTimer(); // a kept-alive socket
    });
    req.on('error', this.fail);
    req.on('response', (res) => this.read(res, maxResponseBytes, stopAtLimit));
  }

  /**
   * Outcomes are tagged: errors from node core may come from another realm (e.g. under jest),
   * where `instanceof Error` is false.
   */
  private finish(outcome: Outcome): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.connectTimer);
    clearTimeout(this.responseTimer);
    if (outcome.ok) {
      this.resolve({
        status: outcome.status,
        headers: outcome.headers,
        body: outcome.body,
        truncated: outcome.truncated,
      });
    } else {
      this.req?.destroy();
      this.reject(outcome.error);
    }
  }

  private readonly fail = (error: unknown): void => this.finish({ ok: false, error });

  private startResponseTimer(responseTimeoutMs: number, deadlineAt: number): void {
    clearTimeout(this.connectTimer);
    if (this.settled || this.responseTimer) return;
    const limit = within(responseTimeoutMs, deadlineAt);
    this.responseTimer = setTimeout(
      () =>
        this.fail(
          new SafeHttpFailure(
            'timeout',
            limit < responseTimeoutMs
              ? "no complete response within the call's deadline"
              : `no complete response within ${responseTimeoutMs} ms`,
          ),
        ),
      limit,
    );
  }

  /** Reads the body up to the limit; the status arrived, so a body cut short still counts as that response. */
  private read(res: http.IncomingMessage, maxResponseBytes: number, stopAtLimit: boolean): void {
    const chunks: Buffer[] = [];
    let length = 0;
    let truncated = false;
    const done = (): void => {
      this.finish({
        ok: true,
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: Buffer.concat(chunks, length),
        truncated,
      });
    };
    const stop = (): void => {
      done();
      res.destroy(); // stop reading; the socket is not reused
    };
    res.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      const room = maxResponseBytes - length;
      if (chunk.length > room) {
        truncated = true;
        chunks.push(chunk.subarray(0, room));
        length += room;
        stop();
        return;
      }
      chunks.push(chunk);
      length += chunk.length;
      if (stopAtLimit && length >= maxResponseBytes) stop();
    });
    res.on('end', done);
    // The status arrived; a body cut short by the peer still counts as that response.
    res.on('close', done);
    res.on('error', () => done());
  }
}

/** The shorter of a bound and the time left before a deadline (at least 0). */
function within(boundMs: number, deadlineAt: number): number {
  return Math.max(0, Math.min(boundMs, Math.ceil(deadlineAt - performance.now())));
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

/** Error class and a message without headers or body (Node's network messages name only address and port). */
function classify(err: unknown): { errorClass: NetworkErrorClass; message: string } {
  if (err instanceof SafeHttpFailure) return { errorClass: err.errorClass, message: err.message };
  // With several addresses to try, Node reports an AggregateError: judge by the first. (Duck
  // typing: errors from node core may come from another realm, where `instanceof` is false.)
  const errors = (err as { errors?: unknown } | null)?.errors;
  const cause: unknown = Array.isArray(errors) && errors.length > 0 ? errors[0] : err;
  const code = errorCode(cause) ?? errorCode(err);
  const rawMessage = (cause as { message?: unknown } | null)?.message;
  const text = typeof rawMessage === 'string' ? rawMessage.trim() : 'request failed';
  const message = code && !text.includes(code) ? `${code}: ${text}` : text;
  let errorClass: NetworkErrorClass = 'other';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') errorClass = 'timeout';
  else if (
    code === 'ECONNREFUSED' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    code === 'EADDRNOTAVAIL' ||
    code === 'ENETDOWN'
  )
    errorClass = 'connect';
  else if (
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'EAI_FAIL' ||
    code === 'EAI_NONAME' ||
    code === 'ENODATA'
  )
    errorClass = 'dns';
  else if ((code && TLS_CODE.test(code)) || /certificate|ssl|tls/i.test(text)) errorClass = 'tls';
  else if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(text)) errorClass = 'reset';
  return { errorClass, message };
}
