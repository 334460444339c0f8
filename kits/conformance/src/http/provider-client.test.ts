import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../model';
import { createProviderClient } from './provider-client';

describe('the provider client', () => {
  let server: Server;
  let baseUrl: string;
  let seen: { headers: IncomingHttpHeaders; body: string }[];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/v1/redirect') return void res.writeHead(302, { location: '/v1/ok' }).end();
        if (req.url === '/v1/slow') return void setTimeout(() => res.writeHead(200).end('{}'), 400);
        if (req.url === '/v1/huge') {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(1024 * 1024, 'a');
          let sent = 0;
          const more = (): void => {
            while (sent < 8 && res.write(chunk)) sent += 1;
            if (sent < 8) res.once('drain', () => ((sent += 1), more()));
            else res.end();
          };
          return more();
        }
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });
  beforeEach(() => (seen = []));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const client = (recorded: Exchange[] = []) =>
    createProviderClient({ baseUrl, apiKey: 'the-key', record: (exchange) => recorded.push(exchange) });

  it('sends Accept, Bearer and a JSON content type with a body, and records the exchange', async () => {
    const recorded: Exchange[] = [];
    const exchange = await client(recorded).call('POST', '/deliveries', { body: { a: 1 } });
    expect(seen[0]!.headers).toMatchObject({
      accept: 'application/json',
      authorization: 'Bearer the-key',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(seen[0]!.body).toBe('{"a":1}');
    expect(exchange).toMatchObject({
      method: 'POST',
      url: `${baseUrl.slice(0, -1)}/deliveries`,
      status: 200,
      json: { ok: true },
      responseBytes: 11,
    });
    expect(recorded).toEqual([exchange]);
  });

  it('follows the auth option and sends raw bodies as they are', async () => {
    const call = client();
    await call.call('GET', '/x', { auth: 'none' });
    await call.call('GET', '/x', { auth: 'Token abc' });
    await call.call('POST', '/x', { rawBody: '{"a":', contentType: null, headers: { accept: 'text/plain' } });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['content-type']).toBeUndefined();
    expect(seen[1]!.headers.authorization).toBe('Token abc');
    expect(seen[2]!.body).toBe('{"a":');
    expect(seen[2]!.headers['content-type']).toBeUndefined();
    expect(seen[2]!.headers.accept).toBe('text/plain');
  });

  it('never follows a redirect', async () => {
    const exchange = await client().call('GET', '/redirect');
    expect(exchange).toMatchObject({ status: 302, responseHeaders: { location: '/v1/ok' } });
    expect(seen).toHaveLength(1);
  });

  it('records no answer in time as an error, and a refused connection too', async () => {
    const late = await client().call('GET', '/slow', { timeoutMs: 100 });
    expect(late).toMatchObject({ status: null, error: 'no answer within 0.1 s', responseBody: null });
    const refused = await createProviderClient({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'k',
      record: () => undefined,
    }).call('GET', '/x');
    expect(refused.status).toBeNull();
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });

  it('stops reading a body past 6 MiB and records its size', async () => {
    const exchange = await client().call('GET', '/huge');
    expect(exchange.status).toBe(200);
    expect(exchange.responseBytes).toBeGreaterThan(6 * 1024 * 1024);
    expect(exchange.responseBody!.length).toBeLessThanOrEqual(6 * 1024 * 1024);
  });
});
