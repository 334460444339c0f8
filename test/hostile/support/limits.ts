import http from 'node:http';
import net from 'node:net';

/*
 * Tools of the resource-limit tests: a steady healthy client whose latencies say whether an attack
 * starves everybody else, and raw sockets for what no well-behaved HTTP client does (bodies that
 * never end, heads that trickle in, connections that stay silent).
 */

export interface LatencySummary {
  requests: number;
  failed: number;
  /** A few of the failures (status or error), to say what went wrong. */
  failures: string[];
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The p-th percentile (nearest rank) of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface HealthyRequest {
  url: string;
  headers: Record<string, string>;
}

/**
 * A client that GETs `request.url` every `intervalMs`, whether or not the previous answer has come
 * (a fixed arrival rate: a slow server shows as latency, not as fewer requests), on kept-alive
 * connections of its own. Each request must answer 200 within `timeoutMs`.
 */
export function steadyClient(request: HealthyRequest, intervalMs = 50, timeoutMs = 5000) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const latencies: number[] = [];
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const one = () => {
    const started = performance.now();
    const done = new Promise<void>((resolve) => {
      const req = http.get(request.url, { agent, headers: request.headers, timeout: timeoutMs }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - started);
          else failures.push(`status ${res.statusCode}`);
          resolve();
        });
        res.on('error', (error) => (failures.push(error.message), resolve()));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error) => (failures.push(error.message), resolve()));
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  one();
  const timer = setInterval(one, intervalMs);
  return {
    async stop(): Promise<LatencySummary> {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      agent.destroy();
      const sorted = [...latencies].sort((a, b) => a - b);
      const round = (ms: number) => Math.round(ms * 10) / 10;
      return {
        requests: latencies.length + failures.length,
        failed: failures.length,
        failures: failures.slice(0, 5),
        p50Ms: round(percentile(sorted, 50)),
        p99Ms: round(percentile(sorted, 99)),
        maxMs: round(sorted.at(-1) ?? 0),
      };
    },
  };
}

export interface RawOutcome {
  /** The answer's status, when one came. */
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed (or reset) the connection. */
  closed: boolean;
  /** Our own deadline passed first: the server neither answered in full nor closed. */
  timedOut: boolean;
  elapsedMs: number;
}

/**
 * One request over a raw socket: the head as given, then `body` at once, or trickled `trickle.bytes`
 * bytes every `trickle.everyMs` (never finishing unless the body runs out). Resolves when a complete
 * answer arrived, the server closed the connection, or after `timeoutMs`.
 */
export function rawRequest(
  url: string,
  head: string,
  options: { body?: Buffer; trickle?: { everyMs: number }; timeoutMs: number },
): Promise<RawOutcome> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    let trickler: NodeJS.Timeout | undefined;
    const finish = (how: { closed?: boolean; timedOut?: boolean }) => {
      if (settled) return;
      settled = true;
      clearInterval(trickler);
      clearTimeout(deadline);
      socket.destroy();
      resolve({
        ...parseAnswer(received),
        closed: how.closed ?? false,
        timedOut: how.timedOut ?? false,
        elapsedMs: Math.round(performance.now() - started),
      });
    };
    const deadline = setTimeout(() => finish({ timedOut: true }), options.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (answerComplete(received)) finish({});
    });
    socket.on('close', () => finish({ closed: true }));
    socket.on('error', () => finish({ closed: true })); // EPIPE, ECONNRESET: the server hung up
    socket.on('connect', () => {
      socket.write(head);
      const body = options.body;
      if (!body) return;
      if (!options.trickle) return void socket.write(body);
      let sent = 0;
      trickler = setInterval(() => {
        if (sent < body.length && !socket.destroyed) socket.write(body.subarray(sent, ++sent));
      }, options.trickle.everyMs);
    });
  });
}

function parseAnswer(raw: Buffer): Pick<RawOutcome, 'status' | 'headers' | 'body'> {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
  const headers: Record<string, string> = {};
  for (const line of (end >= 0 ? text.slice(0, end) : text).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: status ? Number(status) : undefined, headers, body: end >= 0 ? text.slice(end + 4) : '' };
}

function answerComplete(raw: Buffer): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.subarray(0, end).toString('latin1'))?.[1];
  return length !== undefined && raw.length - (end + 4) >= Number(length);
}

/** A request head (HTTP/1.1) with the given headers, `Content-Length` when `length` is given. */
export function requestHead(method: string, url: string, headers: Record<string, string>, length?: number): string {
  const { host, pathname, search } = new URL(url);
  const all = { host, ...headers, ...(length === undefined ? {} : { 'content-length': String(length) }) };
  return `${method} ${pathname}${search} HTTP/1.1\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

/**
 * Connections held open: `idle` that connect and send nothing, `slow` that send a request head a
 * byte a second and never finish it. Resolves, once every one has been closed by the server or
 * `timeoutMs` has passed, with how many the server closed and when the last of them went.
 */
export async function holdConnections(
  url: string,
  counts: { idle: number; slow: number },
  timeoutMs: number,
): Promise<{ closedByServer: number; total: number; lastClosedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  let lastClosed = 0;
  const head = Buffer.from(
    `POST ${new URL(url).pathname} HTTP/1.1\r\nhost: ${hostname}\r\nx-slow: ${'a'.repeat(4000)}`,
  );
  const one = (slow: boolean) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), hostname);
      let sent = 0;
      const trickle = slow
        ? setInterval(() => {
            if (!socket.destroyed && sent < head.length) socket.write(head.subarray(sent, ++sent));
          }, 1000)
        : undefined;
      let gaveUp = false;
      const deadline = setTimeout(() => {
        gaveUp = true;
        clearInterval(trickle);
        socket.destroy();
        resolve(false);
      }, timeoutMs);
      socket.on('data', () => undefined); // a 408 on the way out: read and ignored
      socket.on('error', () => undefined); // the close below says it
      socket.on('close', () => {
        if (gaveUp) return;
        clearInterval(trickle);
        clearTimeout(deadline);
        lastClosed = Math.max(lastClosed, performance.now() - started);
        resolve(true);
      });
    });
  // Opened 25 at a time, 20 ms apart: all held at once within a quarter of a second, without
  // this process's own burst of connects showing up as the healthy client's latency.
  const kinds = [
    ...Array.from({ length: counts.idle }, () => false),
    ...Array.from({ length: counts.slow }, () => true),
  ];
  const pending: Array<Promise<boolean>> = [];
  for (let i = 0; i < kinds.length; i += 25) {
    pending.push(...kinds.slice(i, i + 25).map(one));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const closed = await Promise.all(pending);
  const closedByServer = closed.filter(Boolean).length;
  return { closedByServer, total: closed.length, lastClosedAfterMs: Math.round(lastClosed) };
}
