import { randomUUID } from 'node:crypto';
import type { DeliveryEvent, EventTypeOf } from '@marketplace/contracts';
import {
  createKafka,
  EventPublisher,
  EventSchemas,
  loadTopicCatalog,
  SchemaValidator,
  type OutgoingEvent,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
} from '@marketplace/events';
import {
  quietLogger,
  sleep,
  stackEnv,
  waitFor,
  startReceiver,
  type Received,
  type Receiver,
  verifySignature,
} from '@marketplace/testing';
import { Webhook } from 'standardwebhooks';
import { startWebhookCluster, waitForInstallation, type WebhookCluster } from './support/cluster';
import { connectedSource, type PartnerSetup } from './support/partner';

// End to end: partner orders through the gateway become signed webhooks at a real receiver, with
// the retry schedule run 10,000 times faster (2 minutes → 12 ms, 12 hours → 4.3 s).
let cluster: WebhookCluster;
let receiver: Receiver;
let n = 0;
/** A source whose webhooks go to a path of its own on the receiver. */
const source = async (events?: string[]) => {
  const path = `/hooks/${++n}`;
  const s = await connectedSource(cluster, `${receiver.url}${path}`, events);
  return { ...s, path, got: () => receiver.at(path) };
};
const parsed = (r: { body: Buffer }) => JSON.parse(r.body.toString('utf8'));
/** What the Standard Webhooks library makes of a request: the parsed body, or a throw. */
const standardVerify = (r: Received, secret: string) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
const deliveryOf = (s: PartnerSetup, id: string) => s.webhooks('GET', `/deliveries/${id}`).then((res) => res.body);

beforeAll(async () => {
  receiver = await startReceiver();
  cluster = await startWebhookCluster();
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
});

describe('orders.created and orders.cancelled', () => {
  it('reach the source signed over the exact bytes, with the envelope and headers of the spec', async () => {
    const s = await source();
    const order = await s.order();
    const [created] = await waitFor('orders.created at the receiver', () =>
      s.got().length >= 1 ? s.got() : undefined,
    );
    expect(verifySignature(created!, s.secret)).toBe(true);
    expect(verifySignature(created!, `${s.secret}x`)).toBe(false);
    const envelope = parsed(created!);
    expect(envelope).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'orders.created',
      version: 1,
      occurredAt: expect.any(String),
      data: expect.objectContaining({
        orderId: order.orderId,
        orderNumber: order.orderNumber,
        status: 'Pending',
        currencyCode: 'EUR',
        grandTotal: order.grandTotal,
      }),
    });
    expect(created!.headers['x-marketplace-event-id']).toBe(envelope.id);
    expect(Math.abs(Number(created!.headers['x-marketplace-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // The Standard Webhooks headers of the same attempt, checked by that standard's own library with
    // the very secret string the partner was given at connect.
    expect(created!.headers['webhook-id']).toBe(envelope.id);
    expect(created!.headers['webhook-timestamp']).toBe(created!.headers['x-marketplace-timestamp']);
    expect(standardVerify(created!, s.secret)).toEqual(envelope);
    expect(() =>
      standardVerify({ ...created!, body: Buffer.concat([created!.body, Buffer.from(' ')]) }, s.secret),
    ).toThrow(/No matching signature/);
    expect(created!.headers['content-type']).toMatch(/^application\/json/);

    expect((await s.call('POST', `/orders/${order.orderId}/cancel`)).status).toBe(200);
    const cancelled = await waitFor('orders.cancelled', () =>
      s.got().find((r) => parsed(r).type === 'orders.cancelled'),
    );
    expect(verifySignature(cancelled, s.secret)).toBe(true);
    expect(parsed(cancelled).data).toEqual({
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      externalOrderId: order.externalOrderId,
      status: 'Cancelled',
    });
  });

  it('broadcasts orders.created to every subscribed installation of the tenant; orders.cancelled only to the source; nothing to the unsubscribed', async () => {
    const a = await source();
    const b = await source(['orders.created', 'orders.cancelled']);
    const bystander = await connectedSource(cluster, `${receiver.url}/hooks/bystander-${n}`, ['orders.created'], {
      tenantId: a.tenantId,
      tenant: a.tenant,
      menu: a.menu,
    });
    const notSubscribed = await connectedSource(cluster, `${receiver.url}/hooks/none-${n}`, ['payment.completed'], {
      tenantId: a.tenantId,
      tenant: a.tenant,
      menu: a.menu,
    });
    void b;
    const order = await a.order();
    await a.call('POST', `/orders/${order.orderId}/cancel`);
    await waitFor(
      'orders.cancelled at the source',
      () => a.got().some((r) => parsed(r).type === 'orders.cancelled') || undefined,
    );
    await waitFor(
      'orders.created at the bystander',
      () => receiver.at(`/hooks/bystander-${n}`).length >= 1 || undefined,
    );
    const bystanderTypes = receiver.at(`/hooks/bystander-${n}`).map((r) => parsed(r).type);
    expect(bystanderTypes).toEqual(['orders.created']);
    expect(verifySignature(receiver.at(`/hooks/bystander-${n}`)[0]!, bystander.secret)).toBe(true);
    expect(receiver.at(`/hooks/none-${n}`)).toEqual([]);
    expect(notSubscribed.installationId).toBeDefined();
  });

  it('stops sending to an installation once it is disconnected', async () => {
    const s = await source();
    expect((await s.tenant.call('POST', `/api/tenant/v1/installations/${s.installationId}/disconnect`)).status).toBe(
      200,
    );
    await waitForInstallation(cluster, s.installationId, (copy) => !copy.connected);
    const other = await connectedSource(cluster, `${receiver.url}/hooks/other-${n}`, ['orders.created'], {
      tenantId: s.tenantId,
      tenant: s.tenant,
      menu: s.menu,
    });
    await other.order();
    await waitFor(
      'the connected installation got the order',
      () => receiver.at(`/hooks/other-${n}`).length >= 1 || undefined,
    );
    expect(s.got()).toEqual([]);
  });
});

describe('delivery.* from the deliveries topic', () => {
  const DELIVERY_EVENTS = ['delivery.assigned', 'delivery.superseded', 'delivery.cancelled'];
  /**
   * Longer than the other waits: the first events of the topic after the sender's start come after
   * its domain-events consumer has read the shared topics' history (other test runs and benches
   * publish there too), which takes a while on a busy machine.
   */
  const DELIVERY_WAIT_MS = 45_000;

  /**
   * The webhooks received, one per delivery (a slow answer on a busy machine makes the sender retry:
   * the same event id again), as type and data, sorted by type.
   */
  const received = (got: Array<{ body: Buffer; headers: Record<string, unknown> }>) =>
    [...new Map(got.map((r) => [r.headers['x-marketplace-event-id'], parsed(r)])).values()]
      .map((e) => ({ type: e.type, data: e.data }))
      .sort((x, y) => x.type.localeCompare(y.type));

  /** Publishes delivery-assignment's events as it will: validated against the topic's schema. */
  async function publishDeliveries(events: OutgoingEvent[]): Promise<void> {
    const catalog = loadTopicCatalog();
    const publisher = new EventPublisher(
      createKafka({ connection: kafkaConnectionFromEnv(stackEnv()), clientId: 'deliveries-it', logger: quietLogger() }),
      catalog,
      new EventSchemas(registryConnectionFromEnv(stackEnv()), catalog),
      new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])),
      'deliveries-it',
    );
    await publisher.connect();
    try {
      await publisher.publish(events);
    } finally {
      await publisher.disconnect();
    }
  }

  it('sends delivery.assigned, .superseded and .cancelled to the installation of the assignment each is about, identifiers only; delivery.status-changed sends nothing', async () => {
    const first = await source(DELIVERY_EVENTS);
    const secondPath = `/hooks/second-provider-${n}`;
    const second = await connectedSource(cluster, `${receiver.url}${secondPath}`, DELIVERY_EVENTS, {
      tenantId: first.tenantId,
      tenant: first.tenant,
      menu: first.menu,
    });
    const orderId = randomUUID();
    const [a1, a2] = [randomUUID(), randomUUID()];
    const pickup = {
      branchId: first.menu.branchId,
      name: 'Mitte',
      address: 'Hauptstr. 1, 10115 Berlin',
      latitude: 52.52,
      longitude: 13.4,
      externalLocationId: null,
    };
    let revision = 0;
    /** One event of the order's delivery, about `assignmentId` of `installationId`. */
    const event = (
      type: EventTypeOf<'deliveries'>,
      about: [string, string],
      statuses: [DeliveryEvent['previousStatus'], DeliveryEvent['status']],
      live: [string, string, DeliveryEvent['status']] | null,
    ): OutgoingEvent => ({
      topic: 'deliveries',
      key: orderId,
      type,
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      data: {
        tenantId: first.tenantId,
        orderId,
        orderNumber: '4242',
        assignmentId: about[0],
        installationId: about[1],
        previousStatus: statuses[0],
        status: statuses[1],
        live: live && { assignmentId: live[0], installationId: live[1], status: live[2], pickup },
        revision: ++revision,
        changedAt: new Date().toISOString(),
      },
    });
    await publishDeliveries([
      event(
        'delivery.assigned',
        [a1, first.installationId],
        [null, 'Assigned'],
        [a1, first.installationId, 'Assigned'],
      ),
      // The tenant reassigns: the first provider's assignment is superseded, the second's is new.
      event(
        'delivery.superseded',
        [a1, first.installationId],
        ['Assigned', 'Superseded'],
        [a2, second.installationId, 'Assigned'],
      ),
      event(
        'delivery.assigned',
        [a2, second.installationId],
        [null, 'Assigned'],
        [a2, second.installationId, 'Assigned'],
      ),
      // The second provider accepts (its own action: no webhook), then the order is cancelled.
      event(
        'delivery.status-changed',
        [a2, second.installationId],
        ['Assigned', 'Accepted'],
        [a2, second.installationId, 'Accepted'],
      ),
      event('delivery.cancelled', [a2, second.installationId], ['Accepted', 'Terminated'], null),
    ]);
    const toFirst = await waitFor(
      'two webhooks at the first provider',
      () => (received(first.got()).length >= 2 ? first.got() : undefined),
      DELIVERY_WAIT_MS,
    );
    const toSecond = await waitFor(
      'two webhooks at the second provider',
      () => (received(receiver.at(secondPath)).length >= 2 ? receiver.at(secondPath) : undefined),
      DELIVERY_WAIT_MS,
    );
    await sleep(500); // nothing more comes (delivery.status-changed sends nothing)
    expect(received(first.got())).toEqual([
      { type: 'delivery.assigned', data: { orderId, orderNumber: '4242', assignmentId: a1 } },
      { type: 'delivery.superseded', data: { orderId, orderNumber: '4242', assignmentId: a1 } },
    ]);
    expect(received(receiver.at(secondPath))).toEqual([
      { type: 'delivery.assigned', data: { orderId, orderNumber: '4242', assignmentId: a2 } },
      { type: 'delivery.cancelled', data: { orderId, orderNumber: '4242', assignmentId: a2 } },
    ]);
    for (const r of toFirst) expect(verifySignature(r, first.secret)).toBe(true);
    for (const r of toSecond) expect(verifySignature(r, second.secret)).toBe(true);
  }, 120_000);

  it('sends a delivery.* webhook only to an installation subscribed to that type', async () => {
    const s = await source(['delivery.cancelled']);
    const orderId = randomUUID();
    const data = {
      tenantId: s.tenantId,
      orderId,
      orderNumber: '4243',
      assignmentId: randomUUID(),
      installationId: s.installationId,
      previousStatus: null,
      status: 'Assigned' as const,
      live: null,
      revision: 1,
      changedAt: new Date().toISOString(),
    };
    await publishDeliveries([
      { topic: 'deliveries', key: orderId, type: 'delivery.assigned', occurredAt: new Date().toISOString(), data },
      {
        topic: 'deliveries',
        key: orderId,
        type: 'delivery.cancelled',
        occurredAt: new Date().toISOString(),
        data: { ...data, previousStatus: 'Assigned', status: 'Terminated', revision: 2 },
      },
    ]);
    await waitFor('delivery.cancelled', () => s.got().length >= 1 || undefined, DELIVERY_WAIT_MS);
    await sleep(500);
    expect(received(s.got()).map((e) => e.type)).toEqual(['delivery.cancelled']);
  }, 90_000);
});

describe('retries', () => {
  it.each([500, 408, 429])(
    'retries on %p with the backoff schedule, then succeeds with the same id and body',
    async (status) => {
      const s = await source(['orders.created']);
      receiver.respond = (req, nth) => (req.path === s.path && nth <= 3 ? status : 200);
      await s.order();
      const got = await waitFor('four attempts', () => (s.got().length >= 4 ? s.got() : undefined), 20_000);
      receiver.respond = () => 200;
      expect(new Set(got.map((r) => r.headers['x-marketplace-event-id'])).size).toBe(1);
      expect(new Set(got.map((r) => r.body.toString('hex'))).size).toBe(1);
      for (const r of got) expect(verifySignature(r, s.secret)).toBe(true);
      // Nominal gaps at 1/10,000: 12 ms, 36 ms, 108 ms (±20 %), plus the pipeline's own time.
      const gaps = got.slice(1).map((r, i) => r.at - got[i]!.at);
      expect(gaps[2]!).toBeGreaterThanOrEqual(108 * 0.8 - 5);
      // The fourth request has arrived; its outcome is recorded once the answer is back.
      const id = got[0]!.headers['x-marketplace-event-id'] as string;
      const delivery = await waitFor(
        'the fourth attempt recorded',
        async () => {
          const d = await deliveryOf(s, id);
          return d?.attemptCount === 4 ? d : undefined;
        },
        10_000,
      );
      expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 4 });
      expect(delivery.attempts.map((a: any) => [a.attempt, a.statusCode, a.verdict])).toEqual([
        [1, status, 'retry'],
        [2, status, 'retry'],
        [3, status, 'retry'],
        [4, 200, 'delivered'],
      ]);
    },
  );

  it('retries after a timeout (no answer within the response timeout)', async () => {
    const s = await source(['orders.created']);
    receiver.respond = (req, nth) => (req.path === s.path && nth === 1 ? 'hang' : 200);
    await s.order();
    const got = await waitFor('two attempts', () => (s.got().length >= 2 ? s.got() : undefined), 20_000);
    receiver.respond = () => 200;
    const delivery = await waitFor('delivered', async () => {
      const d = await deliveryOf(s, got[0]!.headers['x-marketplace-event-id'] as string);
      return d.status === 'delivered' ? d : undefined;
    });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, errorClass: 'timeout', verdict: 'retry' });
  });

  it.each([400, 404, 410, 302])('does not retry %p', async (status) => {
    const s = await source(['orders.created']);
    receiver.respond = (req) => (req.path === s.path ? status : 200);
    await s.order();
    const [first] = await waitFor('the attempt', () => (s.got().length >= 1 ? s.got() : undefined));
    const delivery = await waitFor('failed', async () => {
      const d = await deliveryOf(s, first!.headers['x-marketplace-event-id'] as string);
      return d.status === 'failed' ? d : undefined;
    });
    receiver.respond = () => 200;
    expect(delivery.attempts).toEqual([expect.objectContaining({ statusCode: status, verdict: 'permanent' })]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // longer than the first retry delay
    expect(s.got()).toHaveLength(1);
  });

  it('dead-letters after the 8th attempt, stays visible, and can be redelivered with the same id and a fresh signature', async () => {
    const s = await source(['orders.created']);
    receiver.respond = (req) => (req.path === s.path ? 503 : 200);
    await s.order();
    // 12 + 36 + 108 + 324 + 972 + 2916 + 4320 ms of nominal delays: about 8.7 s.
    const got = await waitFor('eight attempts', () => (s.got().length >= 8 ? s.got() : undefined), 30_000);
    const id = got[0]!.headers['x-marketplace-event-id'] as string;
    const dead = await waitFor('dead-lettered', async () => {
      const d = await deliveryOf(s, id);
      return d.status === 'dead_lettered' ? d : undefined;
    });
    expect(dead.attempts).toHaveLength(8);
    expect(dead.reason).toBe('no success after 8 attempts');
    const gaps = got.slice(1).map((r, i) => r.at - got[i]!.at);
    expect(gaps[6]!).toBeGreaterThanOrEqual(4320 * 0.8 - 5); // the 12-hour cap, scaled
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(s.got()).toHaveLength(8);
    const letters = await s.webhooks('GET', `/installations/${s.installationId}/deliveries?status=dead_lettered`);
    expect(letters.body.map((d: any) => d.id)).toEqual([id]);

    receiver.respond = () => 200;
    const again = await s.webhooks('POST', `/deliveries/${id}/redeliver`);
    expect(again.status).toBe(202);
    const redelivered = await waitFor('the redelivery', () => (s.got().length >= 9 ? s.got()[8] : undefined));
    expect(redelivered.headers['x-marketplace-event-id']).toBe(id);
    expect(redelivered.body.equals(got[0]!.body)).toBe(true);
    expect(redelivered.headers['x-marketplace-signature']).not.toBe(got[0]!.headers['x-marketplace-signature']);
    expect(verifySignature(redelivered, s.secret)).toBe(true);
    const after = await waitFor('delivered', async () => {
      const d = await deliveryOf(s, id);
      return d.status === 'delivered' ? d : undefined;
    });
    expect(after).toMatchObject({ round: 2, attemptCount: 9 });
    expect((await s.webhooks('POST', `/deliveries/${id}/redeliver`)).status).toBe(202);
  }, 60_000);

  it('signs the next attempt with a rotated secret', async () => {
    const s = await source(['orders.created']);
    let rotated = false;
    // Failing until the rotation has reached the sender: the attempts go on meanwhile.
    receiver.respond = (req) => (req.path === s.path && !rotated ? 500 : 200);
    await s.order();
    const [first] = await waitFor('the first attempt', () => (s.got().length >= 1 ? s.got() : undefined));
    expect(verifySignature(first!, s.secret)).toBe(true);
    const res = await s.tenant.call('POST', `/api/tenant/v1/installations/${s.installationId}/webhook-secret/rotate`);
    const secret = res.body.credentials.webhookSigningSecret;
    await waitForInstallation(cluster, s.installationId, (copy) => copy.revision >= 2 && copy.connected);
    rotated = true;
    const id = first!.headers['x-marketplace-event-id'] as string;
    await waitFor('delivered', async () => (await deliveryOf(s, id)).status === 'delivered' || undefined, 20_000);
    receiver.respond = () => 200;
    const last = s.got().at(-1)!;
    expect(last.headers['x-marketplace-event-id']).toBe(id);
    expect(verifySignature(last, secret)).toBe(true);
    expect(verifySignature(last, s.secret)).toBe(false);
    // Standard Webhooks: during the overlap after the rotation both secrets sign, so a partner
    // still verifying with the old one drops nothing.
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(standardVerify(last, secret)).toMatchObject({ id });
    expect(standardVerify(last, s.secret)).toMatchObject({ id });
    expect(() => standardVerify(first!, secret)).toThrow(/No matching signature/);
  });
});

describe('system.test', () => {
  it('goes through the same signed pipeline to an installation that did not subscribe to it, with no business data', async () => {
    const s = await source(['orders.cancelled']);
    const res = await s.webhooks('POST', `/installations/${s.installationId}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      type: 'system.test',
      status: 'pending',
      payload: { id: res.body.id, type: 'system.test', version: 1, data: {} },
    });
    const [got] = await waitFor('system.test', () => (s.got().length >= 1 ? s.got() : undefined));
    expect(parsed(got!)).toMatchObject({ id: res.body.id, type: 'system.test', data: {} });
    expect(verifySignature(got!, s.secret)).toBe(true);
  });

  it('is 404 for another tenant’s installation and for an unknown one', async () => {
    const a = await source();
    const b = await source();
    expect((await b.webhooks('POST', `/installations/${a.installationId}/test`)).status).toBe(404);
    expect((await b.webhooks('GET', `/installations/${a.installationId}/deliveries`)).status).toBe(404);
    expect((await b.webhooks('POST', '/installations/00000000-0000-4000-8000-000000000000/test')).status).toBe(404);
  });
});

describe('metrics', () => {
  it('counts attempts by verdict and deliveries by how they ended, at /metrics', async () => {
    const text = await (await fetch(`${cluster.sender.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
    expect(text).toMatch(/webhook_attempts_total\{[^}]*type="orders.created"[^}]*verdict="retry"[^}]*\} [1-9]/);
    expect(text).toMatch(/webhook_attempts_total\{[^}]*verdict="retry"[^}]*error_class="timeout"[^}]*\} [1-9]/);
    expect(text).toMatch(/webhook_deliveries_ended_total\{[^}]*status="dead_lettered"[^}]*\} [1-9]/);
    expect(text).toMatch(/webhook_attempt_duration_seconds_count\{[^}]*verdict="delivered"[^}]*\} [1-9]/);
  });
});
