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

interface CheckedTarget {
  url: URL;
  hostname: string; // without IPv6 brackets
  address: string; // the checked address the socket must connect to
  family: 4 | 6;
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
 * HTTP client for calls to partner-supplied URLs (webhook receivers). Only absolute https URLs;
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
      const target = await this.checkedTarget(url);
      const { status, bodyPreview, retryAfter } = await this.send(target, headers, body, contentType);
      return { kind: 'response', status, latencyMs: latencyMs(), bodyPreview, retryAfter };
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

  private async checkedTarget(raw: string): Promise<CheckedTarget> {
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

    const addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await this.lookup(hostname);
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

  private async lookup(hostname: string): Promise<Array<{ address: string; family: number }>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new SafeHttpFailure('dns', `DNS lookup of ${hostname} timed out after ${this.options.connectTimeoutMs} ms`),
          ),
        this.options.connectTimeoutMs,
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

  private send(
    target: CheckedTarget,
    callerHeaders: Record<string, string>,
    body: Buffer,
    contentType: string,
  ): Promise<{ status: number; bodyPreview: string; retryAfter: string | null }> {
    const { connectTimeoutMs, responseTimeoutMs, maxResponseBytes } = this.options;
    const isHttps = target.url.protocol === 'https:';

    // Connect to exactly the address that was checked: no second resolution (DNS rebinding).
    const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all)
        callback(null, [{ address: target.address, family: target.family } satisfies LookupAddress]);
      else callback(null, target.address, target.family);
    };

    const headers: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(callerHeaders)) {
      const lower = name.toLowerCase();
      if (lower === 'content-type' || lower === 'content-length' || lower === 'transfer-encoding' || lower === 'host')
        continue;
      headers[name] = value;
    }
    headers['content-type'] = contentType;
    headers['content-length'] = body.length;

    return new Promise((resolve, reject) => {
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      let responseTimer: NodeJS.Timeout | undefined;
      let req: http.ClientRequest;

      // Outcomes are tagged: errors from node core may come from another realm (e.g. under jest),
      // where `instanceof Error` is false.
      const finish = (
        outcome:
          { ok: true; status: number; bodyPreview: string; retryAfter: string | null } | { ok: false; error: unknown },
      ): void => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(responseTimer);
        if (outcome.ok) {
          resolve({ status: outcome.status, bodyPreview: outcome.bodyPreview, retryAfter: outcome.retryAfter });
        } else {
          req.destroy();
          // An Error, possibly of another realm, where `instanceof Error` cannot tell (above).
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(outcome.error);
        }
      };
      const fail = (error: unknown): void => finish({ ok: false, error });
      const startResponseTimer = (): void => {
        clearTimeout(connectTimer);
        if (settled || responseTimer) return;
        responseTimer = setTimeout(
          () => fail(new SafeHttpFailure('timeout', `no complete response within ${responseTimeoutMs} ms`)),
          responseTimeoutMs,
        );
      };

      const requestOptions: https.RequestOptions = {
        method: 'POST',
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.url.port || (isHttps ? 443 : 80),
        path: `${target.url.pathname}${target.url.search}`,
        headers,
        lookup: pinned,
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        ...(isHttps && !isIP(target.hostname) ? { servername: target.hostname } : {}),
        ...(isHttps && this.options.ca !== undefined ? { ca: this.options.ca } : {}),
      };
      try {
        req = (isHttps ? https : http).request(requestOptions);
      } catch (err) {
        // e.g. an invalid header value: report the code only, never the header.
        const code = errorCode(err);
        reject(new SafeHttpFailure('other', `request could not be built${code ? ` (${code})` : ''}`));
        return;
      }

      connectTimer = setTimeout(
        () =>
          fail(
            new SafeHttpFailure(
              'timeout',
              `connect to ${target.hostname} (${target.address}) timed out after ${connectTimeoutMs} ms`,
            ),
          ),
        connectTimeoutMs,
      );
      req.on('socket', (socket: Socket) => {
        if (socket.connecting) socket.once('connect', startResponseTimer);
        else startResponseTimer(); // a kept-alive socket
      });
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let length = 0;
        const done = (): void => {
          const retryAfter = res.headers['retry-after'];
          finish({
            ok: true,
            status: res.statusCode ?? 0,
            bodyPreview: Buffer.concat(chunks, length).toString('utf8'),
            // Only read where a kind's policy honours it (provider callbacks; see retry-policy.ts).
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = maxResponseBytes - length;
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
          chunks.push(part);
          length += part.length;
          if (length >= maxResponseBytes) {
            done();
            res.destroy(); // stop reading; the socket is not reused
          }
        });
        res.on('end', done);
        // The status arrived; a body cut short by the peer still counts as that response.
        res.on('close', done);
        res.on('error', () => done());
      });
      req.end(body);
    });
  }
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
