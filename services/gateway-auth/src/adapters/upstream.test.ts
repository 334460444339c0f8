import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpstreamClient } from './upstream';

// An owner that drops the second request of every connection without answering: what a request
// meets when it is written to a kept-alive connection the owner is closing (a rolling restart).
let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    req.resume();
    const socket: IncomingMessage['socket'] & { served?: number } = req.socket;
    socket.served = (socket.served ?? 0) + 1;
    seen.push(`${req.method} #${socket.served}`);
    if (socket.served > 1) return void socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const client = () => new UpstreamClient(5_000);

it('sends a read again on a new connection when its kept-alive one is closed under it', async () => {
  const upstream = client();
  try {
    await upstream.forward(base, { method: 'GET', pathAndQuery: '/a', headers: {} });
    const second = await upstream.forward(base, { method: 'GET', pathAndQuery: '/b', headers: {} });
    expect(second.status).toBe(200);
  } finally {
    upstream.close();
  }
});

it('sends a change with an Idempotency-Key again, since the owner keeps one result per key', async () => {
  const upstream = client();
  try {
    await upstream.forward(base, { method: 'GET', pathAndQuery: '/a', headers: {} });
    const change = { method: 'POST', pathAndQuery: '/orders', headers: { 'Idempotency-Key': 'k-1' }, body: '{}' };
    expect((await upstream.forward(base, change)).status).toBe(200);
  } finally {
    upstream.close();
  }
});

it('never sends a change without an Idempotency-Key twice: the partner gets 502', async () => {
  const upstream = client();
  try {
    await upstream.forward(base, { method: 'GET', pathAndQuery: '/a', headers: {} });
    seen.length = 0;
    await expect(
      upstream.forward(base, { method: 'POST', pathAndQuery: '/apps', headers: {}, body: '{}' }),
    ).rejects.toMatchObject({ code: 'upstream.bad_response' });
    expect(seen).toEqual(['POST #2']);
  } finally {
    upstream.close();
  }
});
