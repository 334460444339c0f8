import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { verifyMarketplaceWebhook } from '../src';
import { listen, type ListenIo } from '../src/cli/listen';
import { listenSettings, UsageError, type ListenSettings } from '../src/cli/options';

// `marketplace-webhooks listen` against a fake delivery log (the Partner API extension's two reads)
// and a local receiver: new deliveries only, each body byte for byte, signed afresh with the
// partner's secret (its verifier and a Standard Webhooks library accept it), a redelivery again,
// 429 honoured by its Retry-After, a refused key ends it.

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const API_KEY = 'key-id.key-secret';
const INSTALLATION = '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f11';

interface Delivery {
  id: string;
  type: string;
  round: number;
  createdAt: string;
  body: string;
}

const delivery = (n: number, createdAt: string): Delivery => ({
  id: `00000000-0000-8000-8000-00000000000${n}`,
  type: n % 2 ? 'orders.created' : 'delivery.assigned',
  round: 1,
  createdAt,
  // Spacing, key order and a non-ASCII character a re-serialized body would not keep.
  body: `{"id":"00000000-0000-8000-8000-00000000000${n}", "type":"orders.created","version":1,"data":{"ü":${n},"a":1.50}}`,
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

let log: Server;
let receiver: Server;
let deliveries: Delivery[];
let busyOnce: number | undefined;
let refuse: boolean;
const logRequests: string[] = [];
const received: Array<{ headers: IncomingMessage['headers']; body: Buffer; url: string }> = [];

beforeAll(async () => {
  log = await serve((req, res) => {
    logRequests.push(`${req.method} ${req.url}`);
    if (refuse || req.headers.authorization !== `ApiKey ${API_KEY}`)
      return json(res, 401, { code: 'auth.unauthenticated' });
    if (busyOnce !== undefined) {
      const retryAfter = busyOnce;
      busyOnce = undefined;
      return json(res, 429, { code: 'rate_limit.exceeded' }, { 'retry-after': String(retryAfter) });
    }
    const url = new URL(req.url!, 'http://x');
    const view = (d: Delivery) => ({ ...d, body: undefined, installationId: INSTALLATION, status: 'delivered' });
    if (url.pathname === '/api/partner/v1/webhooks/deliveries') {
      const newest = [...deliveries].reverse().slice(0, Number(url.searchParams.get('limit')));
      return json(res, 200, newest.map(view));
    }
    const one = deliveries.find((d) => url.pathname === `/api/partner/v1/webhooks/deliveries/${d.id}`);
    return one ? json(res, 200, { ...view(one), body: one.body }) : json(res, 404, { code: 'resource.not_found' });
  });
  receiver = await serve((req, res, body) => {
    received.push({ headers: req.headers, body, url: req.url! });
    res.writeHead(received.length === 1 ? 204 : 500).end();
  });
});

afterAll(async () => {
  for (const server of [log, receiver]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => {
  deliveries = [];
  busyOnce = undefined;
  refuse = false;
  logRequests.length = 0;
  received.length = 0;
});

/** Runs `listen` with a recording io whose sleeps are short; `step` runs between polls. */
function start(settings: Partial<ListenSettings>) {
  const lines: string[] = [];
  const waits: number[] = [];
  const stop = new AbortController();
  const io: ListenIo = {
    print: (line) => lines.push(line),
    sleep: (ms) => {
      waits.push(ms);
      return new Promise((resolve) => setTimeout(resolve, 5));
    },
    now: Date.now,
  };
  const all: ListenSettings = {
    baseUrl: urlOf(log),
    apiKey: API_KEY,
    webhookSecret: SECRET,
    forwardTo: `${urlOf(receiver)}/hooks`,
    since: 'now',
    intervalMs: 1000,
    ...settings,
  };
  const done = listen(all, stop.signal, io);
  return { lines, waits, stop, done };
}

// Generous bounds: on a busy machine (CI runs the whole suite on two cores) a poll round can
// take longer than a quiet machine's whole test.
jest.setTimeout(30_000);

async function until(what: string, condition: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

it('forwards each new delivery byte for byte, freshly signed, once; a redelivery again; old ones never', async () => {
  deliveries = [delivery(1, '2026-11-28T10:00:00.000Z')];
  const run = start({});
  await until('ready', () => run.lines.some((l) => l.startsWith('Ready')));
  deliveries.push(delivery(2, '2026-11-28T10:00:01.000Z'), delivery(3, '2026-11-28T10:00:02.000Z'));
  await until('two forwards', () => received.length === 2);
  // The tool prints a forward's line once the receiver has answered, a moment after it received it.
  await until('two forward lines', () => run.lines.filter((l) => l.includes('->')).length === 2);

  // Oldest first, the exact bytes, verifiable with the partner's secret both ways.
  expect(received.map((r) => r.body.toString('utf8'))).toEqual([deliveries[1]!.body, deliveries[2]!.body]);
  for (const [i, r] of received.entries()) {
    expect(r.url).toBe('/hooks');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-marketplace-event-id']).toBe(deliveries[i + 1]!.id);
    expect(verifyMarketplaceWebhook({ body: r.body, headers: r.headers, secret: SECRET })).toMatchObject({ ok: true });
    const standard = new Webhook(SECRET.slice('whsec_'.length));
    expect(() => standard.verify(r.body.toString('utf8'), r.headers as Record<string, string>)).not.toThrow();
  }
  expect(run.lines.filter((l) => l.includes('->'))).toEqual([
    expect.stringMatching(/ delivery\.assigned {2}00000000-0000-8000-8000-000000000002 {2}-> 204 \(\d+ ms\)$/),
    expect.stringMatching(/ orders\.created {2}00000000-0000-8000-8000-000000000003 {2}-> 500 \(\d+ ms\)$/),
  ]);

  // A redelivery (the same id, the next round) is forwarded again; nothing else is.
  deliveries[1]!.round = 2;
  await until('the redelivery', () => received.length === 3);
  await until('the redelivery line', () => run.lines.filter((l) => l.includes('->')).length === 3);
  expect(received[2]!.body.toString('utf8')).toBe(deliveries[1]!.body);
  expect(run.lines.at(-1)).toMatch(/000000000002 \(redelivery\) {2}-> 500/);
  const polls = () => logRequests.filter((r) => r.includes('?limit=')).length;
  const before = polls();
  await until('two more polls', () => polls() >= before + 2);
  expect(received).toHaveLength(3);
  expect(logRequests.filter((r) => r.endsWith(deliveries[0]!.id))).toEqual([]);
  expect(run.waits.every((ms) => ms === 1000)).toBe(true);

  run.stop.abort();
  await expect(run.done).resolves.toBe(0);
  // Neither secret is ever printed.
  expect(run.lines.join('\n')).not.toContain(SECRET);
  expect(run.lines.join('\n')).not.toContain(API_KEY);
});

it('waits Retry-After on a 429, then goes on', async () => {
  const run = start({ intervalMs: 200 });
  await until('ready', () => run.lines.some((l) => l.startsWith('Ready')));
  busyOnce = 7;
  await until('the 429', () => run.lines.some((l) => l.startsWith('waiting')));
  deliveries.push(delivery(4, '2026-11-28T10:00:04.000Z'));
  await until('a forward', () => received.length === 1);
  expect(run.waits).toContain(7000);
  expect(run.lines.find((l) => l.startsWith('waiting'))).toBe('waiting 7 s: the delivery log answered 429');
  run.stop.abort();
  await expect(run.done).resolves.toBe(0);
});

it('with --since a time, forwards the deliveries created from then on, oldest first', async () => {
  deliveries = [
    delivery(5, '2026-11-28T09:00:00.000Z'),
    delivery(6, '2026-11-28T10:00:00.000Z'),
    delivery(7, '2026-11-28T11:00:00.000Z'),
  ];
  const run = start({ since: new Date('2026-11-28T10:00:00.000Z') });
  await until('two forwards', () => received.length === 2);
  expect(received.map((r) => r.headers['x-marketplace-event-id'])).toEqual([deliveries[1]!.id, deliveries[2]!.id]);
  run.stop.abort();
  await expect(run.done).resolves.toBe(0);
});

it('ends with 1 when the API key is refused', async () => {
  refuse = true;
  const run = start({});
  await expect(run.done).resolves.toBe(1);
  expect(run.lines.at(-1)).toBe('error: the API key was refused (401): check --api-key');
});

it('reports a local endpoint that does not answer, and goes on', async () => {
  // A port nobody listens on any more.
  const closed = await serve(() => undefined);
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const run = start({ forwardTo: `http://127.0.0.1:${port}/hooks`, intervalMs: 100 });
  await until('ready', () => run.lines.some((l) => l.startsWith('Ready')));
  deliveries.push(delivery(8, '2026-11-28T12:00:00.000Z'));
  await until('the failed forward', () => run.lines.some((l) => l.includes('->')));
  expect(run.lines.find((l) => l.includes('->'))).toMatch(/000000000008 {2}-> failed \(ECONNREFUSED\)/);
  run.stop.abort();
  await expect(run.done).resolves.toBe(0);
});

describe('options', () => {
  const argv = ['listen', '--base-url', 'http://gw.local:4101/', '--forward-to', 'http://localhost:3000/hooks'];
  const env = { MARKETPLACE_API_KEY: API_KEY, MARKETPLACE_WEBHOOK_SECRET: SECRET };

  it('takes the secrets from the environment, or the options', () => {
    expect(listenSettings(argv, env)).toEqual({
      baseUrl: 'http://gw.local:4101',
      apiKey: API_KEY,
      webhookSecret: SECRET,
      forwardTo: 'http://localhost:3000/hooks',
      since: 'now',
      intervalMs: 5000, // 12 polls a minute of the installation's 60
    });
    const given = listenSettings(
      [...argv, '--api-key', 'a.b', '--webhook-secret', 'whsec_x', '--since', '2026-11-28T10:00:00Z'],
      env,
    );
    expect(given).toMatchObject({ apiKey: 'a.b', webhookSecret: 'whsec_x', since: new Date('2026-11-28T10:00:00Z') });
    expect(listenSettings(['listen', '--help'], {})).toBeUndefined();
  });

  it('refuses what cannot run', () => {
    expect(() => listenSettings(argv, {})).toThrow(
      new UsageError('--api-key is required (or env MARKETPLACE_API_KEY)'),
    );
    expect(() => listenSettings(['listen', '--forward-to', 'x'], env)).toThrow(UsageError);
    expect(() => listenSettings([...argv, '--since', 'yesterday'], env)).toThrow(/--since/);
    expect(() => listenSettings([...argv, '--interval', '0'], env)).toThrow(/--interval/);
    expect(() => listenSettings([...argv, '--bogus'], env)).toThrow(UsageError);
    expect(() => listenSettings(['forward', ...argv.slice(1)], env)).toThrow(/unknown command/);
  });
});
