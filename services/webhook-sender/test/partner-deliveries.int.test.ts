import { randomUUID } from 'node:crypto';
import { partnerCall, startReceiver, verifySignature, waitFor, type Receiver } from '@marketplace/testing';
import { listen, type ListenIo } from 'marketplace-webhooks';
import { startWebhookCluster, type WebhookCluster } from './support/cluster';
import { connectedSource, type PartnerSetup } from './support/partner';

// The Partner API extension (ours): an installation lists its own webhook deliveries, reads one with
// its attempts and the body as sent, and redelivers it, through the gateway with its API key; it
// never sees another installation's or tenant's. And `marketplace-webhooks listen` forwarding the
// installation's webhooks from the real gateway to a local URL.

let cluster: WebhookCluster;
let receiver: Receiver;
let n = 0;
const source = async (owner?: PartnerSetup) => {
  const path = `/partner-log/${++n}`;
  const s = await connectedSource(cluster, `${receiver.url}${path}`, ['orders.created'], owner);
  return { ...s, path, got: () => receiver.at(path) };
};
const key = () => ({ 'idempotency-key': randomUUID() });
const get = (s: PartnerSetup, path: string) =>
  partnerCall(cluster.gateway, s.apiKey, 'GET', `/webhooks/deliveries${path}`);
const redeliver = (s: PartnerSetup, id: string, headers: Record<string, string> = key()) =>
  partnerCall(cluster.gateway, s.apiKey, 'POST', `/webhooks/deliveries/${id}/redeliver`, { headers });

beforeAll(async () => {
  receiver = await startReceiver();
  cluster = await startWebhookCluster();
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
});

it('lists, reads and redelivers its own deliveries, and no other installation sees them', async () => {
  const a = await source();
  const sibling = await source(a); // another installation of A's tenant
  const other = await source(); // another tenant's
  await a.order();
  const [first] = await waitFor('orders.created at A', () => (a.got().length >= 1 ? a.got() : undefined));
  const id = JSON.parse(first!.body.toString('utf8')).id as string;

  // Listed, newest first, with status and attempts; filtered by status; capped by limit.
  const listed = await waitFor('the delivery recorded as delivered', async () => {
    const res = await get(a, '');
    return res.body.find?.((d: any) => d.id === id && d.status === 'delivered') ? res : undefined;
  });
  expect(listed.status).toBe(200);
  expect(listed.headers.get('ratelimit-policy') ?? listed.headers.get('ratelimit-limit')).toBeTruthy();
  expect(listed.body[0]).toMatchObject({ id, installationId: a.installationId, type: 'orders.created', round: 1 });
  expect(listed.body[0].attemptCount).toBe(1);
  expect(listed.body[0].body).toBeUndefined();
  expect((await get(a, '?status=delivered')).body.map((d: any) => d.id)).toContain(id);
  expect((await get(a, '?status=failed')).body).toEqual([]);
  expect((await get(a, '?limit=1')).body).toHaveLength(1);
  const invalid = await get(a, '?status=lost&limit=0');
  expect(invalid.status).toBe(400);
  expect(invalid.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(invalid.body).toMatchObject({
    code: 'request.invalid',
    errors: { status: expect.any(Array), limit: expect.any(Array) },
  });

  // One, with its attempts and the body exactly as sent.
  const one = await get(a, `/${id}`);
  expect(one.status).toBe(200);
  expect(one.body.body).toBe(first!.body.toString('utf8'));
  expect(one.body.attempts).toEqual([
    expect.objectContaining({ round: 1, attempt: 1, statusCode: 200, errorClass: null, verdict: 'delivered' }),
  ]);
  expect(one.body.nextAttemptAt).toBeNull();

  // Redelivered: 202, Idempotency-Key required and honoured; the receiver gets the same id and body.
  const missing = await redeliver(a, id, {});
  expect(missing.status).toBe(400);
  expect(missing.body.code).toBe('idempotency.key_missing');
  const headers = key();
  const again = await redeliver(a, id, headers);
  expect(again.status).toBe(202);
  expect(again.body).toMatchObject({ id, status: 'pending', round: 2 });
  const replayed = await redeliver(a, id, headers);
  expect(replayed.status).toBe(202);
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  const second = await waitFor('the redelivery at A', () => a.got()[1]);
  expect(second.body.equals(first!.body)).toBe(true);
  expect(verifySignature(second, a.secret)).toBe(true);
  expect(a.got()).toHaveLength(2);

  // Another installation of the tenant, and another tenant: 404 as for an unknown id, and not listed.
  const unknown = await get(sibling, `/${randomUUID()}`);
  expect(unknown.status).toBe(404);
  for (const stranger of [sibling, other]) {
    const read = await get(stranger, `/${id}`);
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({
      code: unknown.body.code,
      title: unknown.body.title,
      detail: unknown.body.detail,
    });
    expect(read.text).not.toContain(a.installationId);
    expect((await redeliver(stranger, id)).status).toBe(404);
    expect((await get(stranger, '')).body.map((d: any) => d.id)).not.toContain(id);
  }
  expect(a.got()).toHaveLength(2);
});

it("marketplace-webhooks listen forwards the installation's new webhooks from the gateway to a local URL", async () => {
  const a = await source();
  await a.order();
  await waitFor('the first orders.created at A', () => a.got()[0]);
  const lines: string[] = [];
  const io: ListenIo = {
    print: (line) => lines.push(line),
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.min(ms, 300));
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
    now: Date.now,
  };
  const stop = new AbortController();
  const forwardPath = `/local-dev/${n}`;
  const running = listen(
    {
      baseUrl: cluster.gateway.url,
      apiKey: a.apiKey,
      webhookSecret: a.secret,
      forwardTo: `${receiver.url}${forwardPath}`,
      since: 'now',
      intervalMs: 300,
    },
    stop.signal,
    io,
  );
  try {
    await waitFor('listen ready', () => lines.some((l) => l.startsWith('Ready')) || undefined);
    await a.order();
    const [sent] = await waitFor('the second orders.created at A', () =>
      a.got().length >= 2 ? [a.got()[1]!] : undefined,
    );
    const forwarded = await waitFor('the forward', () => receiver.at(forwardPath)[0]);
    // Only the new one, byte for byte, signed afresh with the partner's secret.
    expect(forwarded.body.equals(sent.body)).toBe(true);
    expect(verifySignature(forwarded, a.secret)).toBe(true);
    expect(forwarded.headers['x-marketplace-event-id']).toBe(sent.headers['x-marketplace-event-id']);
    expect(lines.find((l) => l.includes('->'))).toMatch(/orders\.created {2}[0-9a-f-]{36} {2}-> 200/);
    expect(receiver.at(forwardPath)).toHaveLength(1);
  } finally {
    stop.abort();
  }
  await expect(running).resolves.toBe(0);
});
