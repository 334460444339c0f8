import { Agent, request, type ClientRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { context, propagation } from '@opentelemetry/api';
import { AppError } from '@marketplace/errors';
import type { StreamedUpstreamResponse, Upstream, UpstreamRequest, UpstreamResponse } from '../usecases/ports';

/**
 * Response headers worth passing back to the partner (and storing for idempotent replays). `allow`:
 * a 405 must name the methods the resource has (RFC 9110), and only the owner knows them.
 */
const PASSED_BACK = [
  'content-type',
  'content-encoding',
  'location',
  'retry-after',
  'cache-control',
  'etag',
  'last-modified',
  'content-language',
  'vary',
  'allow',
];
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * Forwards a request to an internal service over kept-alive connections, with a deadline. Failures
 * become AppErrors the partner can act on (503 unavailable, 504 timeout, 502 bad response); the
 * causes stay in the log.
 */
export class UpstreamClient implements Upstream {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

  constructor(private readonly timeoutMs: number) {}

  forward(baseUrl: string, req: UpstreamRequest): Promise<UpstreamResponse>;
  forward(baseUrl: string, req: UpstreamRequest, options: { stream: true }): Promise<StreamedUpstreamResponse>;
  async forward(
    baseUrl: string,
    req: UpstreamRequest,
    options: { stream?: boolean } = {},
  ): Promise<UpstreamResponse | StreamedUpstreamResponse> {
    const url = new URL(req.pathAndQuery, baseUrl);
    const headers: Record<string, string> = { ...req.headers };
    propagation.inject(context.active(), headers); // the trace continues in the internal service
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    // One deadline for the whole exchange (connect, wait, body, a resend), not per socket inactivity.
    const deadlineAt = Date.now() + this.timeoutMs;
    for (let sends = 1; ; sends++) {
      try {
        return await this.send(url, req, headers, deadlineAt, options.stream === true);
      } catch (failure) {
        const { error, closedUnanswered } = failure as SendFailure; // send rejects with nothing else
        if (!(closedUnanswered && resendable(req) && sends < MAX_SENDS && Date.now() < deadlineAt))
          throw toUpstreamError(error);
      }
    }
  }

  /** One exchange on one connection; rejects with a SendFailure. */
  private send(
    url: URL,
    req: UpstreamRequest,
    headers: Record<string, string>,
    deadlineAt: number,
    stream: boolean,
  ): Promise<UpstreamResponse | StreamedUpstreamResponse> {
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const outgoing = (secure ? httpsRequest : request)(url, {
        method: req.method,
        headers,
        agent: secure ? this.httpsAgent : this.agent,
      });
      const deadline = setTimeout(() => outgoing.destroy(new UpstreamTimeout()), Math.max(0, deadlineAt - Date.now()));
      let answered = false;
      outgoing.on('response', (res) => {
        answered = true;
        const passed: Record<string, string> = {};
        for (const name of PASSED_BACK) {
          const value = res.headers[name];
          if (typeof value === 'string') passed[name] = value;
        }
        if (stream) {
          // The deadline still covers the whole body: destroying the request ends the stream.
          res.once('close', () => clearTimeout(deadline));
          resolve({ status: res.statusCode ?? 502, headers: passed, body: res });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) outgoing.destroy(new Error('upstream response too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 502, headers: passed, body: Buffer.concat(chunks) });
        });
        res.on('error', () => undefined); // reported through the request's error
      });
      outgoing.on('error', (error) => {
        clearTimeout(deadline);
        reject(new SendFailure(error, !answered && closedWhileIdle(outgoing, error)));
      });
      outgoing.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
    this.httpsAgent.destroy();
  }
}

/** A request sent on a kept-alive socket the owner was closing, at most this many times in all. */
const MAX_SENDS = 3;

/**
 * The race of kept-alive connections: the owner closes a connection it sees idle (it is stopping,
 * or its keep-alive timeout ended) just as a request is written to it, and the request fails
 * without any answer. The owner never read it, so sending it again on another connection is
 * what Node's documentation advises; without this, every rolling restart of an owner showed
 * partners a few 502s (the fault proof's SIGTERMs).
 */
/** Why one exchange failed, and whether it may be sent again (closed before any answer). */
class SendFailure extends Error {
  constructor(
    readonly error: Error,
    readonly closedUnanswered: boolean,
  ) {
    super(error.message);
  }
}

function closedWhileIdle(outgoing: ClientRequest, error: Error): boolean {
  const code = (error as { code?: string }).code;
  return outgoing.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
}

/**
 * Sent again only when a second copy cannot do harm even if the owner did read the first: reads,
 * and changes carrying an Idempotency-Key (the owner and the gateway keep one result per key).
 */
function resendable(req: UpstreamRequest): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
  return Object.keys(req.headers).some((name) => name.toLowerCase() === 'idempotency-key');
}

class UpstreamTimeout extends Error {}

function toUpstreamError(error: Error): AppError {
  if (error instanceof UpstreamTimeout)
    return new AppError('gateway_timeout', 'upstream.timeout', 'The service did not answer in time.', { cause: error });
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH') {
    return new AppError('unavailable', 'upstream.unavailable', 'The service is unavailable; try again shortly.', {
      cause: error,
      retryAfterSeconds: 1,
    });
  }
  return new AppError('bad_gateway', 'upstream.bad_response', 'The service failed to answer.', { cause: error });
}
