import { connect } from 'node:net';

/*
 * Requests written byte for byte on a fresh TCP connection: the request target goes out exactly as
 * given (`/ADMIN/v1/…`, `/a/../b`, `%2e%2e`, a backslash), where fetch and every other client would
 * normalise it first. One request per connection (`Connection: close`), bounded in time: a request
 * that gets no status line within the timeout is reported, never waited for.
 */

export interface RawRequest {
  /** `http://127.0.0.1:<port>` of the service. */
  base: string;
  method: string;
  /** The request target, sent as is (path and query). */
  target: string;
  headers?: Record<string, string>;
  /** A JSON body; without one, a request of a body method says `Content-Length: 0`. */
  body?: unknown;
}

export interface RawAnswer {
  /** The status code, or 0 when none came (the reason in `error`). */
  status: number;
  /** The first bytes of the body, for the report. */
  snippet: string;
  error?: string;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_KEPT = 8 * 1024;

export function rawRequest(request: RawRequest, timeoutMs = 5_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(request.base);
  const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  const head = [
    `${request.method} ${request.target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    'Accept: application/json',
    ...(body
      ? ['Content-Type: application/json', `Content-Length: ${body.length}`]
      : BODY_METHODS.has(request.method)
        ? ['Content-Length: 0']
        : []),
    ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = connect({ host: hostname, port: Number(port) });
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const bodyAt = text.indexOf('\r\n\r\n');
      const snippet = (bodyAt >= 0 ? text.slice(bodyAt + 4) : text).slice(0, 300);
      if (status) resolve({ status: Number(status[1]), snippet });
      else resolve({ status: 0, snippet, error: error ?? 'closed without a status line' });
    };
    const timer = setTimeout(() => finish(`no complete answer within ${timeoutMs} ms`), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      if (received.length < MAX_KEPT) received = Buffer.concat([received, chunk]);
      else finish(); // enough for the status and a snippet: a large answer is not read to its end
    });
    socket.on('end', () => finish());
    socket.on('error', (error) => finish(error.message));
    socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body ?? Buffer.alloc(0)]));
  });
}

/** Runs the tasks `concurrency` at a time, answers in the order of the tasks. */
export async function inPool<T, R>(items: T[], concurrency: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
