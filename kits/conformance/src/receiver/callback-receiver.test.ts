import { request } from 'node:http';
import { CallbackReceiver } from './callback-receiver';

function post(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the callback receiver', () => {
  let receiver: CallbackReceiver;
  beforeEach(async () => (receiver = await CallbackReceiver.start({ port: 0 })));
  afterEach(() => receiver.close());

  it('makes unguessable URLs per box and keeps each request byte for byte', async () => {
    const box = receiver.box('Delivery #1 (SDP-X)', { defaultTimeoutMs: 1000 });
    expect(box.url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${receiver.port}/callbacks/delivery-1-sdp-x/[A-Za-z0-9_-]{32}$`),
    );
    const bytes = Buffer.from('{ "status" : "delivered",\n"x":"é" }');
    expect(await post(box.url, bytes, { 'X-Platform-Signature': 'abc' })).toBe(204);
    const [callback] = box.received();
    expect(callback!.body.equals(bytes)).toBe(true);
    expect(callback!.headers['x-platform-signature']).toBe('abc');
    expect(callback!.label).toBe('Delivery #1 (SDP-X)');
    expect(box.events()[0]!.event).toEqual({ status: 'delivered', x: 'é' });
    expect(receiver.all()).toHaveLength(1);
    expect(receiver.tokens()).toEqual([box.url.split('/').at(-1)]);
  });

  it('answers failNext statuses first, then 204', async () => {
    const box = receiver.box('retry', { defaultTimeoutMs: 1000 });
    box.failNext(2, 503);
    const statuses = [
      await post(box.url, Buffer.from('{}')),
      await post(box.url, Buffer.from('{}')),
      await post(box.url, Buffer.from('{}')),
    ];
    expect(statuses).toEqual([503, 503, 204]);
    expect(box.received().map((callback) => callback.answeredStatus)).toEqual([503, 503, 204]);
  });

  it('answers 404 to an unknown token and records it nowhere', async () => {
    const box = receiver.box('known', { defaultTimeoutMs: 1000 });
    expect(await post(box.url.replace(/[^/]+$/, 'A'.repeat(32)), Buffer.from('{}'))).toBe(404);
    expect(await post(`http://127.0.0.1:${receiver.port}/elsewhere`, Buffer.from('{}'))).toBe(404);
    expect(receiver.all()).toHaveLength(0);
    expect(box.received()).toHaveLength(0);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const box = receiver.box('big', { defaultTimeoutMs: 1000 });
    expect(await post(box.url, Buffer.alloc(1024 * 1024 + 1, 'a'))).toBe(413);
    expect(box.received()[0]!.body.length).toBe(1024 * 1024);
  });

  it('uses a public base URL when given, and waitFor fails naming what was awaited', async () => {
    const exposed = await CallbackReceiver.start({ publicBaseUrl: 'https://hooks.example.com/kit/' });
    try {
      const box = exposed.box('far', { defaultTimeoutMs: 200 });
      expect(box.url).toMatch(/^https:\/\/hooks\.example\.com\/kit\/callbacks\/far\/[A-Za-z0-9_-]{32}$/);
      // A proxy that keeps the public prefix still reaches the box.
      expect(
        await post(
          `http://127.0.0.1:${exposed.port}/kit/callbacks/far/${box.url.split('/').at(-1)}`,
          Buffer.from('{}'),
        ),
      ).toBe(204);
      await expect(box.waitFor('two events', (events) => events.length >= 2)).rejects.toThrow(
        'two events not reached within 0 s (1 callback(s) arrived at far)',
      );
    } finally {
      await exposed.close();
    }
  });
});
