import { createServer, type Server } from 'node:http';
import { freePort, startReceiver, waitFor, type Receiver } from '@marketplace/testing';
import { startWebhookCluster, type WebhookCluster } from './support/cluster';
import { connectedSource } from './support/partner';
import { injectRetryStorm } from './support/storm';

// A dead endpoint never delays a live one: with a storm of retries due to an endpoint that refuses
// every connection, a new event to a live endpoint is attempted before the storm is, the dead
// endpoint's circuit opens and parks its attempts, and once the endpoint is back a probe closes the
// circuit and the parked attempts go in due order, none of them attempted or counted twice.

const STORM = 600;
const FAILURES_TO_TRIP = 3;
let cluster: WebhookCluster;
let receiver: Receiver;
let revived: Server | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  cluster = await startWebhookCluster({
    WEBHOOK_CIRCUIT_FAILURES: String(FAILURES_TO_TRIP),
    // Long enough that no probe goes while the live event is on its way, short enough for the test.
    WEBHOOK_CIRCUIT_PROBE_INTERVAL_MS: '10000',
    // One attempt at a time per endpoint: the order the revived endpoint sees is the order sent.
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: '1',
  });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
  revived?.closeAllConnections();
  await new Promise((resolve) => (revived ? revived.close(resolve) : resolve(undefined)));
});

/** The storm's attempts after the injected first one: delivery id, attempt number, time, verdict. */
async function stormAttempts(ids: string[]) {
  const docs = await cluster.senderDb
    .collection('deliveries')
    .find({ _id: { $in: ids as never[] } }, { projection: { attempts: 1, status: 1 } })
    .toArray();
  return docs.map((d: any) => ({ id: d._id as string, status: d.status as string, attempts: d.attempts as any[] }));
}

async function gauge(name: string): Promise<number> {
  const text = await (await fetch(`${cluster.sender.url}/metrics`)).text();
  // `name{service="webhook-sender"} 1` (the registry's default label).
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.split(' ').at(-1));
}

it('a new event to a live endpoint goes before a storm of retries to a dead one, whose circuit parks them until it answers', async () => {
  const deadPort = await freePort(); // nothing listens there yet: every attempt is refused at connect
  const live = await connectedSource(cluster, `${receiver.url}/live`, ['orders.created']);
  const dead = await connectedSource(cluster, `http://127.0.0.1:${deadPort}/dead`, ['orders.created']);
  receiver.respond = () => 200;

  const storm = await injectRetryStorm(
    cluster.senderDb,
    { tenantId: dead.tenantId, installationId: dead.installationId },
    STORM,
  );
  const ids = storm.map((s) => s.id);
  await waitFor(
    'the storm to be under way',
    async () => (await stormAttempts(ids)).some((d) => d.attempts.length > 1),
    60_000,
  );

  await live.order();
  const arrival = await waitFor('the live endpoint to get the new event', () => receiver.at('/live')[0], 60_000);
  const before = (await stormAttempts(ids)).flatMap((d) =>
    d.attempts.filter((a) => a.attempt > 1 && new Date(a.at).getTime() < arrival.at),
  );
  // The dead endpoint got only the attempts that tripped its circuit; the rest of the storm waits.
  expect(before.length).toBeLessThanOrEqual(FAILURES_TO_TRIP);
  expect(before.every((a) => a.errorClass !== null && a.verdict === 'retry')).toBe(true);
  // At least: this sender also copies the installations of test files running beside it, and
  // sends their orders, to receivers that may be gone.
  expect(await gauge('webhook_endpoint_circuits_open')).toBeGreaterThanOrEqual(1);
  expect(await gauge('webhook_attempts_queued')).toBeGreaterThanOrEqual(STORM - FAILURES_TO_TRIP - 1);

  // The endpoint comes back: the next probe is answered, and the parked attempts follow.
  const seen: string[] = [];
  revived = createServer((req, res) => {
    seen.push(String(req.headers['x-marketplace-event-id']));
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => revived!.listen(deadPort, '127.0.0.1', resolve));
  const ended = await waitFor(
    'every parked attempt to be delivered',
    async () => {
      const all = await stormAttempts(ids);
      return all.every((d) => d.status === 'delivered') ? all : undefined;
    },
    150_000,
    500,
  );

  // Each delivered once, and each attempt number recorded once, in sequence.
  expect(seen).toHaveLength(STORM);
  expect(new Set(seen).size).toBe(STORM);
  for (const d of ended) {
    expect(d.attempts.map((a) => a.attempt)).toEqual(d.attempts.map((_, i) => i + 1));
    expect(d.attempts.at(-1).verdict).toBe('delivered');
  }
  // Due order: those never tried during the storm were due first (in the order injected), so the
  // probe and the attempts after it took them in that order, before any retried during the outage.
  const neverTried = new Set(ended.filter((d) => d.attempts.length === 2).map((d) => d.id));
  expect(seen.slice(0, neverTried.size)).toEqual(ids.filter((id) => neverTried.has(id)));
}, 300_000);
