import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  SafeHttpClient,
  type SafeHttpOptions,
  type SafePostResult,
  type SafeRequestOptions,
  type SafeRequestResult,
} from './safe-http';

// Self-signed test certificate (valid 2000–2100) for hooks.partner.test, localhost and 127.0.0.1.
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgsLlg6NXjewUmN9WG
skXGce00Bvk0okWmEdNCQP5MFp2hRANCAAT14XPeCkyIUmzRhgyE3WMisLRTCrm2
ysrKBnF+f9SX/jD+s80TJL4/noGyaLbypeHCUwC9nyxtcoiRcV4xQIZm
-----END PRIVATE KEY-----
`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBjTCCATOgAwIBAgIBATAKBggqhkjOPQQDAjAdMRswGQYDVQQDDBJob29rcy5w
YXJ0bmVyLnRlc3QwIBcNMDAwMTAxMDAwMDAwWhgPMjEwMDAxMDEwMDAwMDBaMB0x
GzAZBgNVBAMMEmhvb2tzLnBhcnRuZXIudGVzdDBZMBMGByqGSM49AgEGCCqGSM49
AwEHA0IABPXhc94KTIhSbNGGDITdYyKwtFMKubbKysoGcX5/1Jf+MP6zzRMkvj+e
gbJotvKl4cJTAL2fLG1yiJFxXjFAhmajYjBgMA8GA1UdEwEB/wQFMAMBAf8wLgYD
VR0RBCcwJYISaG9va3MucGFydG5lci50ZXN0gglsb2NhbGhvc3SHBH8AAAEwHQYD
VR0OBBYEFAzfEjISBFLv4eB6RCCOy3Onq1ZxMAoGCCqGSM49BAMCA0gAMEUCIDA+
eqhhXMETizcOze3zGhESaCEMzaYE1Q8GcmKJa+qFAiEAyQ3xZFR5W04E8jOoY9gJ
3bf4AvHs4dGWsdR3XXfAGWE=
-----END CERTIFICATE-----
`;

const SIGNATURE = 't=1700000000,v1=5f2b3c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  servername?: string | false | null;
}

interface TestServer {
  port: number;
  /** TCP connections accepted (also counts connections that never sent a request). */
  connections: number;
  requests: Received[];
  openSockets: Set<Socket>;
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, received: Received) => void;

const servers: TestServer[] = [];
const clients: SafeHttpClient[] = [];

async function startServer(handler: Handler, tls = false): Promise<TestServer> {
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: Received = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      if (tls) received.servername = (req.socket as TLSSocket).servername;
      server.requests.push(received);
      handler(req, res, received);
    });
  };
  const raw = tls ? https.createServer({ key: TEST_KEY, cert: TEST_CERT }, onRequest) : http.createServer(onRequest);
  const server: TestServer = {
    port: 0,
    connections: 0,
    requests: [],
    openSockets: new Set(),
    close: async () => {
      for (const socket of server.openSockets) socket.destroy();
      raw.closeAllConnections();
      await withTimeout(new Promise<void>((resolve) => raw.close(() => resolve())), 2000, 'server close');
    },
  };
  raw.on('connection', (socket: Socket) => {
    server.connections += 1;
    server.openSockets.add(socket);
    socket.on('close', () => server.openSockets.delete(socket));
  });
  raw.listen(0, '127.0.0.1');
  await withTimeout(once(raw, 'listening'), 2000, 'server listen');
  server.port = (raw.address() as AddressInfo).port;
  servers.push(server);
  return server;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function client(overrides: Partial<SafeHttpOptions> = {}): SafeHttpClient {
  const created = new SafeHttpClient({
    connectTimeoutMs: 300,
    responseTimeoutMs: 1000,
    maxResponseBytes: 4096,
    allowLoopbackHttp: false,
    resolve: async () => {
      throw Object.assign(new Error('no DNS in unit tests'), { code: 'ENOTFOUND' });
    },
    ...overrides,
  });
  clients.push(created);
  return created;
}

/** Every post in these tests is bounded, whatever the client does. */
function post(
  c: SafeHttpClient,
  url: string,
  body = Buffer.from('{"event":"order.created"}'),
  headers: Record<string, string> = { 'x-signature': SIGNATURE },
): Promise<SafePostResult> {
  return withTimeout(c.post(url, headers, body), 4000, `POST ${url}`);
}

/** Every request in these tests is bounded, whatever the client does. */
function request(c: SafeHttpClient, url: string, options?: SafeRequestOptions): Promise<SafeRequestResult> {
  return withTimeout(c.request(url, options), 4000, `${options?.method ?? 'request'} ${url}`);
}

// A public address (global unicast) that no test may really connect to: see interceptConnects.
const PUBLIC = '93.184.216.34';

/**
 * Stands in for the network: every socket connect is refused on the spot, after noting the
 * address it would have gone to (through the socket's own `lookup`, i.e. the client's pinned one).
 */
function interceptConnects(): { targets: string[]; restore: () => void } {
  const targets: string[] = [];
  type Connect = (this: Socket, options: net.TcpNetConnectOpts) => Socket;
  const spy = jest.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (
    this: Socket,
    options: net.TcpNetConnectOpts,
  ) {
    const { lookup, host = '' } = options;
    if (!lookup) targets.push(host);
    else
      lookup(host, { all: true }, (_err, addresses) => {
        for (const entry of [addresses].flat()) targets.push(typeof entry === 'string' ? entry : entry.address);
      });
    setImmediate(() =>
      this.destroy(Object.assign(new Error('connect ECONNREFUSED (intercepted)'), { code: 'ECONNREFUSED' })),
    );
    return this;
  } as Connect as never);
  return { targets, restore: () => spy.mockRestore() };
}

function resolverOf(...answers: string[][]): jest.Mock<Promise<Array<{ address: string; family: number }>>, [string]> {
  let call = 0;
  return jest.fn(async (_hostname: string) => {
    const answer = answers[Math.min(call, answers.length - 1)]!;
    call += 1;
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  });
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('SafeHttpClient: responses', () => {
  it('hands back the Retry-After header as sent (a policy that honours it reads it)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '7' }).end('slow down');
    });
    const result = await post(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${server.port}/hooks`);
    expect(result).toMatchObject({ kind: 'response', status: 429, retryAfter: '7' });
  });

  it('posts the exact body bytes and headers and reads the response body (loopback http allowed)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('accepted ✓');
    });
    const body = Buffer.from('{"b": 2,  "a":"é", "n":[1,2]}\n', 'utf8');
    const result = await post(
      client({ allowLoopbackHttp: true }),
      `http://127.0.0.1:${server.port}/hooks/in?x=1`,
      body,
      {
        'X-Signature': SIGNATURE,
        'X-Webhook-Id': 'evt_123',
      },
    );

    expect(result).toEqual({
      kind: 'response',
      status: 200,
      latencyMs: expect.any(Number),
      bodyPreview: 'accepted ✓',
      retryAfter: null,
    });
    expect(server.requests).toHaveLength(1);
    const received = server.requests[0]!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/hooks/in?x=1');
    expect(received.body.equals(body)).toBe(true);
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['content-length']).toBe(String(body.length));
    expect(received.headers['x-signature']).toBe(SIGNATURE);
    expect(received.headers['x-webhook-id']).toBe('evt_123');
    expect(received.headers.host).toBe(`127.0.0.1:${server.port}`);
  });

  it("sends the content type it is given instead of the default, and drops a caller's own", async () => {
    const server = await startServer((_req, res) => res.writeHead(204).end());
    const c = client({ allowLoopbackHttp: true });
    const url = `http://127.0.0.1:${server.port}/`;
    const body = Buffer.from('{}');
    await withTimeout(
      c.post(url, { 'Content-Type': 'text/plain' }, body, 'application/json; charset=utf-8'),
      4000,
      url,
    );
    await withTimeout(c.post(url, { 'Content-Type': 'text/plain' }, body), 4000, url);
    expect(server.requests.map((r) => r.headers['content-type'])).toEqual([
      'application/json; charset=utf-8',
      'application/json',
    ]);
  });

  it('connects to the resolved loopback address but keeps the hostname in the Host header', async () => {
    const server = await startServer((_req, res) => res.writeHead(204).end());
    const resolve = resolverOf(['127.0.0.1']);
    const result = await post(
      client({ allowLoopbackHttp: true, resolve }),
      `http://hooks.partner.test:${server.port}/in`,
    );

    expect(result).toMatchObject({ kind: 'response', status: 204, bodyPreview: '' });
    expect(resolve).toHaveBeenCalledWith('hooks.partner.test');
    expect(server.requests[0]!.headers.host).toBe(`hooks.partner.test:${server.port}`);
  });

  it('returns a 302 as a response and does not follow it', async () => {
    const target = await startServer((_req, res) => res.writeHead(200).end('followed'));
    const redirecting = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end('moved');
    });
    const result = await post(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${redirecting.port}/hooks`);

    expect(result).toMatchObject({ kind: 'response', status: 302, bodyPreview: 'moved' });
    await sleep(50);
    expect(target.connections).toBe(0);
    expect(target.requests).toHaveLength(0);
  });

  it('reads at most maxResponseBytes of a huge body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let written = 0;
      const pump = (): void => {
        // Up to 64 MiB, far more than is read; stops when the client goes away.
        while (written < 1024 && !res.destroyed) {
          written += 1;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    const started = Date.now();
    const result = await post(
      client({ allowLoopbackHttp: true, maxResponseBytes: 1000 }),
      `http://127.0.0.1:${server.port}/`,
    );

    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(result.kind === 'response' && result.bodyPreview).toBe('a'.repeat(1000));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('times out when the server never answers', async () => {
    const server = await startServer(() => undefined);
    const result = await post(
      client({ allowLoopbackHttp: true, responseTimeoutMs: 300 }),
      `http://127.0.0.1:${server.port}/`,
    );

    expect(result).toMatchObject({ kind: 'network', errorClass: 'timeout' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(250);
    expect(result.latencyMs).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a refused connection as connect', async () => {
    const server = await startServer(() => undefined);
    const port = server.port;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const result = await post(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${port}/`);

    expect(result).toMatchObject({ kind: 'network', errorClass: 'connect' });
  });

  it('reports a connection dropped by the server as reset', async () => {
    const server = await startServer((req) => req.socket.destroy());
    const result = await post(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${server.port}/`);

    expect(result).toMatchObject({ kind: 'network', errorClass: 'reset' });
  });

  it('reports a failed name lookup as dns', async () => {
    const result = await post(client(), 'https://no-such-host.invalid/');

    expect(result).toMatchObject({ kind: 'network', errorClass: 'dns' });
  });

  it('bounds a name lookup that never answers', async () => {
    const result = await post(
      client({ connectTimeoutMs: 200, resolve: () => new Promise(() => undefined) }),
      'https://partner.example.com/',
    );

    expect(result).toMatchObject({ kind: 'network', errorClass: 'dns' });
    expect(result.latencyMs).toBeLessThan(1000);
  });

  it('never puts header values or the body into error messages', async () => {
    const server = await startServer((req) => req.socket.destroy());
    const results = await Promise.all([
      post(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${server.port}/`, Buffer.from('{"secret":"body"}')),
      post(client(), 'https://10.0.0.1/', Buffer.from('{"secret":"body"}')),
      post(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${server.port}/`, Buffer.from('{}'), {
        'x-signature': `${SIGNATURE}\r\nx-evil: 1`,
      }),
    ]);
    for (const result of results) {
      expect(result.kind).toBe('network');
      expect(JSON.stringify(result)).not.toContain(SIGNATURE);
      expect(JSON.stringify(result)).not.toContain('secret');
    }
    expect(results[2]).toMatchObject({ errorClass: 'other' });
  });

  it('closes kept-alive sockets on close()', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end('ok'));
    const c = client({ allowLoopbackHttp: true });
    await post(c, `http://127.0.0.1:${server.port}/`);
    await post(c, `http://127.0.0.1:${server.port}/`);
    expect(server.connections).toBe(1); // reused
    c.close();
    await withTimeout(
      (async () => {
        while (server.openSockets.size > 0) await sleep(10);
      })(),
      1000,
      'kept-alive socket close',
    );
  });
});

describe('SafeHttpClient: https', () => {
  it('verifies the certificate and SNI against the original hostname while connecting to the checked address', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end('tls ok'), true);
    const resolve = resolverOf(['127.0.0.1']);
    const result = await post(
      client({ allowLoopbackHttp: true, resolve, ca: TEST_CERT }),
      `https://hooks.partner.test:${server.port}/in`,
    );

    expect(result).toMatchObject({ kind: 'response', status: 200, bodyPreview: 'tls ok' });
    expect(server.requests[0]!.servername).toBe('hooks.partner.test');
    expect(server.requests[0]!.headers.host).toBe(`hooks.partner.test:${server.port}`);
  });

  it('reports an untrusted certificate as tls', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end(), true);
    const result = await post(
      client({ allowLoopbackHttp: true, resolve: resolverOf(['127.0.0.1']) }),
      `https://hooks.partner.test:${server.port}/`,
    );

    expect(result).toMatchObject({ kind: 'network', errorClass: 'tls' });
    expect(server.requests).toHaveLength(0);
  });

  it('reports a certificate for another name as tls', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end(), true);
    const result = await post(
      client({ allowLoopbackHttp: true, resolve: resolverOf(['127.0.0.1']), ca: TEST_CERT }),
      `https://other.partner.test:${server.port}/`,
    );

    expect(result).toMatchObject({ kind: 'network', errorClass: 'tls' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('SafeHttpClient: refused addresses', () => {
  it.each([
    ['https://10.0.0.1/'],
    ['https://169.254.169.254/latest/meta-data'],
    ['https://[::ffff:10.0.0.1]/'],
    ['https://[::ffff:169.254.169.254]/'],
    ['https://[::ffff:127.0.0.1]/'],
    ['https://[fd00::1]/'],
    ['https://[fe80::1]/'],
    ['https://[::]/'],
    ['https://0.0.0.0/'],
    ['https://100.64.0.1/'],
    ['https://172.16.0.1/'],
    ['https://192.168.1.1/'],
    ['https://224.0.0.1/'],
    ['https://127.0.0.1/'],
    ['https://[::1]/'],
    ['http://example.com/'],
    ['ftp://example.com/'],
    ['not a url'],
    ['https://[64:ff9b::a9fe:a9fe]/'],
    ['https://[2002:a00:1::1]/'],
    ['https://198.51.100.7/'],
  ])('%s', async (url) => {
    const resolve = resolverOf([PUBLIC]);
    const result = await post(client({ resolve }), url);

    expect(result).toMatchObject({ kind: 'network', errorClass: 'refused_address', message: expect.any(String) });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('says https is required for a plain http URL', async () => {
    const result = await post(client(), 'http://example.com/hooks');

    expect(result).toMatchObject({ kind: 'network', errorClass: 'refused_address' });
    expect(result.kind === 'network' && result.message).toMatch(/https required/);
  });

  it('refuses plain http to a loopback address unless allowed', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const result = await post(client(), `http://127.0.0.1:${server.port}/`);

    expect(result).toMatchObject({ kind: 'network', errorClass: 'refused_address' });
    expect(server.connections).toBe(0);
  });

  it('refuses a name that resolves to 127.0.0.1 when loopback is not allowed', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end(), true);
    const resolve = resolverOf(['127.0.0.1']);
    const result = await post(client({ resolve, ca: TEST_CERT }), `https://hooks.partner.test:${server.port}/`);

    expect(result).toMatchObject({ kind: 'network', errorClass: 'refused_address' });
    expect(resolve).toHaveBeenCalledTimes(1);
    await sleep(20);
    expect(server.connections).toBe(0);
  });

  it('refuses a name when any of its addresses is private', async () => {
    for (const answer of [
      [PUBLIC, '10.1.2.3'],
      ['10.1.2.3', PUBLIC],
      [PUBLIC, '192.0.2.1'],
      ['2606:4700::1111', '::ffff:169.254.169.254'],
    ]) {
      const result = await post(client({ resolve: resolverOf(answer) }), 'https://partner.example.com/hooks');
      expect(result).toMatchObject({ kind: 'network', errorClass: 'refused_address' });
    }
  });

  it('still refuses private ranges and non-loopback http when loopback http is allowed', async () => {
    const c = client({ allowLoopbackHttp: true, resolve: resolverOf([PUBLIC]) });
    for (const url of [
      'https://10.0.0.1/',
      'http://10.0.0.1/',
      'https://169.254.169.254/',
      'http://[::ffff:10.0.0.1]/',
      'http://partner.example.com/',
    ]) {
      expect(await post(c, url)).toMatchObject({ kind: 'network', errorClass: 'refused_address' });
    }
    const mixed = client({ allowLoopbackHttp: true, resolve: resolverOf(['127.0.0.1', '10.0.0.1']) });
    expect(await post(mixed, 'http://partner.example.com/')).toMatchObject({
      kind: 'network',
      errorClass: 'refused_address',
    });
  });

  it('does not resolve again at connect time (DNS rebinding)', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    // Public on the first lookup, this host on every later one.
    const resolve = resolverOf([PUBLIC], ['127.0.0.1']);
    const intercepted = interceptConnects();
    let result: SafePostResult;
    try {
      result = await post(client({ resolve }), `https://rebind.partner.test:${server.port}/hooks`);
    } finally {
      intercepted.restore();
    }

    expect(result).toMatchObject({ kind: 'network', errorClass: 'connect' });
    expect(intercepted.targets).toEqual([PUBLIC]);
    expect(resolve).toHaveBeenCalledTimes(1);
    await sleep(20);
    expect(server.connections).toBe(0);
  });

  it('does not resolve again at connect time when loopback is allowed either', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const resolve = resolverOf([PUBLIC], ['127.0.0.1']);
    const intercepted = interceptConnects();
    let result: SafeRequestResult;
    try {
      result = await request(
        client({ resolve, allowLoopbackHttp: true }),
        `https://rebind.partner.test:${server.port}/token`,
        { body: { bytes: 'grant_type=authorization_code', contentType: 'application/x-www-form-urlencoded' } },
      );
    } finally {
      intercepted.restore();
    }

    expect(result).toMatchObject({ kind: 'network', errorClass: 'connect' });
    expect(intercepted.targets).toEqual([PUBLIC]);
    expect(resolve).toHaveBeenCalledTimes(1);
    await sleep(20);
    expect(server.connections).toBe(0);
  });
});

describe('SafeHttpClient: request', () => {
  const form = (fields: Record<string, string>) => ({
    bytes: new URLSearchParams(fields).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });

  it('POSTs a form and hands back status, headers and the whole body', async () => {
    const server = await startServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end('{"access_token":"t"}');
    });
    const result = await request(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${server.port}/token?x=1`, {
      headers: { authorization: 'Basic abc', accept: 'application/json', 'Content-Type': 'text/plain' },
      body: form({ grant_type: 'authorization_code', code: 'c 1' }),
    });

    expect(result).toMatchObject({ kind: 'response', status: 200, truncated: false });
    expect(result.kind === 'response' && result.body.toString('utf8')).toBe('{"access_token":"t"}');
    expect(result.kind === 'response' && result.headers['cache-control']).toBe('no-store');
    const received = server.requests[0]!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/token?x=1');
    expect(received.body.toString('utf8')).toBe('grant_type=authorization_code&code=c+1');
    expect(received.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(received.headers['content-length']).toBe(String(received.body.length));
    expect(received.headers.authorization).toBe('Basic abc');
  });

  it('sends a GET without a body', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end('ok'));
    const result = await request(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${server.port}/x`);

    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/x' });
    expect(server.requests[0]!.headers['content-type']).toBeUndefined();
  });

  it.each([
    [100, false],
    [101, true],
    [70_000, true],
  ])('with a 100-byte limit, a %d-byte body is truncated: %s', async (size, truncated) => {
    const server = await startServer((_req, res) => res.writeHead(200).end('a'.repeat(size)));
    const result = await request(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${server.port}/`, {
      maxResponseBytes: 100,
    });

    expect(result).toMatchObject({ kind: 'response', status: 200, truncated });
    expect(result.kind === 'response' && result.body.length).toBe(100);
  });

  it('bounds the whole call by its own deadline', async () => {
    const server = await startServer(() => undefined);
    const result = await request(
      client({ allowLoopbackHttp: true, responseTimeoutMs: 3000 }),
      `http://127.0.0.1:${server.port}/hang`,
      { body: form({ a: 'b' }), timeoutMs: 200 },
    );

    expect(result).toMatchObject({ kind: 'network', errorClass: 'timeout' });
    expect(result.latencyMs).toBeLessThan(1000);
  });

  it('bounds a name lookup by the deadline, as a timeout', async () => {
    const result = await request(
      client({ connectTimeoutMs: 3000, resolve: () => new Promise(() => undefined) }),
      'https://partner.example.com/token',
      { timeoutMs: 200 },
    );

    expect(result).toMatchObject({ kind: 'network', errorClass: 'timeout' });
    expect(result.latencyMs).toBeLessThan(1000);
  });

  it('does not follow a redirect', async () => {
    const target = await startServer((_req, res) => res.writeHead(200).end('followed'));
    const redirecting = await startServer((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/token` }).end();
    });
    const result = await request(client({ allowLoopbackHttp: true }), `http://127.0.0.1:${redirecting.port}/token`, {
      body: form({ code: 'c' }),
    });

    expect(result).toMatchObject({ kind: 'response', status: 307 });
    await sleep(50);
    expect(target.connections).toBe(0);
  });

  it.each([
    ['https://10.0.0.1/token', [PUBLIC]],
    ['https://[::ffff:169.254.169.254]/token', [PUBLIC]],
    ['https://partner.example.com/token', ['169.254.169.254']],
    ['https://partner.example.com/token', [PUBLIC, 'fd00::1']],
    ['http://partner.example.com/token', [PUBLIC]],
  ])('refuses %s (resolving to %j) like post does', async (url, answer) => {
    const result = await request(client({ allowLoopbackHttp: true, resolve: resolverOf(answer) }), url, {
      body: form({ code: 'c' }),
    });

    expect(result).toMatchObject({ kind: 'network', errorClass: 'refused_address' });
  });
});
