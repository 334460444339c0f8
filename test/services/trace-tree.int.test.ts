import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import {
  createTenant,
  freePort,
  partnerCall,
  pickupOrder,
  publishApp,
  restaurantMenu,
  stackEnv,
  startGateway,
  startReceiver,
  startServiceProcess,
  startServiceProcesses,
  waitFor,
  type Receiver,
  type ServiceProcess,
  type TestGateway,
} from '@marketplace/testing';

// One partner request, one trace: an order created through the gateway becomes a webhook at a
// receiver, and every span on the way is exported over OTLP/HTTP to a collector in this test,
// which keeps them in memory. The tree, built by parent span id: the gateway's SERVER span at the
// root; ordering-pricing's SERVER span beneath it; the PRODUCER span of orders.created (published
// through the outbox) beneath that; webhook-sender's CONSUMER span of the event; the PRODUCER span
// of the attempt it schedules; the attempt's CONSUMER span (made when due, from the attempt
// topic); and the webhook's HTTP CLIENT span. The receiver fails that first attempt, so the retry
// (from the first retry topic) must be in the tree too, beneath the first attempt. Each span from
// the service it names.
//
// Other webhook-senders (other test files, `npm start`) share the attempt topics, and a delivery's
// id is the same everywhere: our sender may also process another sender's attempt message for this
// delivery (in the trace too, as that sender propagates it without exporting). So the spans are
// picked by name and parent, not by position.

/** A span as the collector decoded it from an OTLP/HTTP JSON export. */
interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: string;
  attributes: Record<string, string | number | boolean | undefined>;
}

/** OTLP's span kinds, by the number the JSON encoding sends. */
const KINDS: Record<number, string> = {
  0: 'UNSPECIFIED',
  1: 'INTERNAL',
  2: 'SERVER',
  3: 'CLIENT',
  4: 'PRODUCER',
  5: 'CONSUMER',
};

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

const valueOf = (v: OtlpValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** The spans of one export (the exporter sends JSON, ids in hex). */
function decode(body: string): CollectedSpan[] {
  const request = JSON.parse(body) as OtlpExport;
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: KINDS[span.kind] ?? String(span.kind),
        attributes: attributesOf(span.attributes),
      })),
    );
  });
}

/** The trace as an indented tree (service, kind, name), for the failure message. */
function render(spans: CollectedSpan[], rootParent: string): string {
  const children = (id: string) => spans.filter((s) => s.parentSpanId === id);
  const known = new Set(spans.map((s) => s.spanId));
  const lines: string[] = [];
  const walk = (span: CollectedSpan, depth: number) => {
    // Where a message span's message was, and which attempt: tells a retry from a repeat.
    const a = span.attributes;
    const where = [
      ['partition', a['messaging.destination.partition.id']],
      ['offset', a['messaging.kafka.offset']],
      ['attempt', a['webhook.attempt']],
    ]
      .filter(([, value]) => value !== undefined && a['messaging.kafka.offset'] !== undefined)
      .map(([label, value]) => `${String(label)} ${String(value)}`)
      .join(' ');
    lines.push(`${'  '.repeat(depth)}${span.service} ${span.kind} ${span.name}${where ? ` [${where}]` : ''}`);
    for (const child of children(span.spanId)) walk(child, depth + 1);
  };
  for (const root of spans.filter((s) => s.parentSpanId === rootParent || !known.has(s.parentSpanId))) walk(root, 0);
  return lines.join('\n');
}

const READY_MS = 90_000;
const spans: CollectedSpan[] = [];
let collector: Server;
let receiver: Receiver;
let gateway: TestGateway;
let services: ServiceProcess[] = [];
let mongo: MongoClient;
const suffix = randomBytes(4).toString('hex');

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      if (req.url === '/v1/traces') spans.push(...decode(body));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const tracing = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  receiver = await startReceiver();
  services = await startServiceProcesses([
    // The catalog only fills ordering's menu copy: it exports nothing.
    startServiceProcess('catalog', await freePort(), { MONGO_DATABASE: `it_tt_cat_${suffix}` }, READY_MS),
    startServiceProcess(
      'ordering-pricing',
      await freePort(),
      {
        ...tracing,
        MONGO_DATABASE: `it_tt_ord_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-tt-ordering-${suffix}`,
        CATALOG_COPY_START: 'latest',
        DELIVERY_COPY_START: 'latest',
      },
      READY_MS,
    ),
    startServiceProcess(
      'webhook-sender',
      await freePort(),
      {
        ...tracing,
        MONGO_DATABASE: `it_tt_wh_${suffix}`,
        KAFKA_CONSUMER_GROUP_PREFIX: `it-tt-webhooks-${suffix}`,
        ALLOW_LOOPBACK_HTTP_URLS: 'true',
        INSTALLATIONS_COPY_START: 'latest',
        // The retry after a failed first attempt comes 2 minutes / 10,000 later.
        WEBHOOK_RETRY_TIME_SCALE: '10000',
      },
      READY_MS,
    ),
  ]);
  const [catalog, ordering, sender] = services;
  gateway = await startGateway({
    ...tracing,
    CATALOG_URL: catalog!.url,
    ORDERING_URL: ordering!.url,
    WEBHOOKS_URL: sender!.url,
    ALLOW_LOOPBACK_HTTP_URLS: 'true',
  });
  mongo = await MongoClient.connect(stackEnv().MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
}, 180_000);

afterAll(async () => {
  await mongo?.close();
  await gateway?.stop();
  await Promise.all(services.map((s) => s.stop()));
  await receiver?.close();
  await new Promise((resolve) => collector?.close(resolve));
});

it('follows one partner request from the gateway to the webhook attempt in one trace', async () => {
  // A partner with a menu and an order source whose orders.created goes to the receiver.
  const { tenantId, tenant } = await createTenant(gateway);
  const menu = await restaurantMenu(tenant, tenantId, mongo.db(`it_tt_ord_${suffix}`));
  const path = '/hooks/trace-tree';
  const { appId, version } = await publishApp(gateway, ['Orders.Create'], ['orders.created'], {
    webhookUrl: `${receiver.url}${path}`,
  });
  const installed = await tenant.call('POST', '/api/tenant/v1/installations', { appId, contractVersion: version });
  const connected = await tenant.call('POST', `/api/tenant/v1/installations/${installed.body.id}/connect`);
  expect(connected.status).toBe(200);
  const { apiKey, webhookSigningSecret } = connected.body.credentials;
  await waitFor(`webhook-sender's copy of installation ${installed.body.id}`, async () => {
    const copy = await mongo
      .db(`it_tt_wh_${suffix}`)
      .collection('installations')
      .findOne({ _id: installed.body.id as never });
    return copy?.connected === true && Boolean(copy.webhookSecretSealed);
  });

  // The partner's request, in a trace of the partner's own (its span is not exported).
  const traceId = randomBytes(16).toString('hex');
  const partnerSpanId = randomBytes(8).toString('hex');
  // Our sender's requests carry the trace (HTTP instrumentation): the first is refused, once.
  let answered = 0;
  receiver.respond = (req) => {
    if (!String(req.headers.traceparent ?? '').includes(traceId)) return 200;
    answered += 1;
    return answered === 1 ? 503 : 200;
  };
  const created = await partnerCall(gateway, apiKey, 'POST', '/orders', {
    body: JSON.stringify(pickupOrder(menu)),
    headers: { 'idempotency-key': randomUUID(), traceparent: `00-${traceId}-${partnerSpanId}-01` },
  });
  expect(created.status).toBe(201);
  await waitFor('the first attempt (answered 503) and its retry (200) at the receiver', () => answered === 2, 30_000);

  const inTrace = () => spans.filter((s) => s.traceId === traceId);
  const byId = () => new Map(inTrace().map((s) => [s.spanId, s]));
  const isUnder = (span: CollectedSpan, ancestor: CollectedSpan) => {
    const known = byId();
    for (let at = known.get(span.parentSpanId); at; at = known.get(at.parentSpanId))
      if (at.spanId === ancestor.spanId) return true;
    return false;
  };
  /** The chain from the root down, each link beneath the one before; undefined while incomplete. */
  const chain = () => {
    const all = inTrace();
    const find = (test: (s: CollectedSpan) => boolean) => all.find(test);
    const root = find((s) => s.parentSpanId === partnerSpanId);
    if (!root) return undefined;
    const ownerServer = find((s) => s.service === 'ordering-pricing' && s.kind === 'SERVER' && isUnder(s, root));
    if (!ownerServer) return undefined;
    const sendOrders = find((s) => s.kind === 'PRODUCER' && s.name === 'send orders' && isUnder(s, ownerServer));
    if (!sendOrders) return undefined;
    const consumeOrders = find(
      (s) => s.kind === 'CONSUMER' && s.name === 'process orders' && s.parentSpanId === sendOrders.spanId,
    );
    if (!consumeOrders) return undefined;
    const sendAttempt = find(
      (s) => s.kind === 'PRODUCER' && s.name === 'send webhook-attempts' && isUnder(s, consumeOrders),
    );
    if (!sendAttempt) return undefined;
    const attempt = find(
      (s) => s.kind === 'CONSUMER' && s.name === 'process webhook-attempts' && s.parentSpanId === sendAttempt.spanId,
    );
    if (!attempt) return undefined;
    const webhook = find(
      (s) =>
        s.kind === 'CLIENT' &&
        s.parentSpanId === attempt.spanId &&
        (s.attributes['http.request.method'] ?? s.attributes['http.method']) === 'POST',
    );
    if (!webhook) return undefined;
    const retry = find(
      (s) =>
        s.kind === 'CONSUMER' &&
        s.name === 'process webhook-attempts.retry-1' &&
        s.attributes['webhook.attempt'] === 2 &&
        isUnder(s, attempt),
    );
    if (!retry) return undefined;
    const retryWebhook = find((s) => s.kind === 'CLIENT' && s.parentSpanId === retry.spanId && s.name === webhook.name);
    if (!retryWebhook) return undefined;
    // Complete once every span's parent has come too (a parent ends, and is exported, after its children).
    const known = byId();
    if (all.some((s) => s !== root && !known.has(s.parentSpanId))) return undefined;
    return { root, ownerServer, sendOrders, consumeOrders, sendAttempt, attempt, webhook, retry, retryWebhook };
  };
  let found: ReturnType<typeof chain>;
  try {
    found = await waitFor('the exported spans of the request, from the gateway to the webhook attempt', chain, 30_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nspans of trace ${traceId}:\n${render(inTrace(), partnerSpanId)}`);
  }
  const tree = render(inTrace(), partnerSpanId);
  const { root, ownerServer, sendOrders, consumeOrders, sendAttempt, attempt, webhook, retry, retryWebhook } = found;
  try {
    expect([root.service, root.kind]).toEqual(['gateway-auth', 'SERVER']);
    expect([ownerServer.service, ownerServer.kind]).toEqual(['ordering-pricing', 'SERVER']);
    expect([sendOrders.service, sendOrders.attributes['messaging.destination.name']]).toEqual([
      'ordering-pricing',
      'orders',
    ]);
    expect([consumeOrders.service, consumeOrders.name]).toEqual(['webhook-sender', 'process orders']);
    expect(sendAttempt.service).toBe('webhook-sender');
    expect([attempt.service, attempt.name]).toEqual(['webhook-sender', 'process webhook-attempts']);
    expect(attempt.attributes).toMatchObject({ 'webhook.attempt': 1, 'webhook.round': 1 });
    expect(webhook.service).toBe('webhook-sender');
    expect(webhook.attributes['http.response.status_code']).toBe(503);
    expect([retry.service, retryWebhook.service]).toEqual(['webhook-sender', 'webhook-sender']);
    expect(retryWebhook.attributes['http.response.status_code']).toBe(200);
    // One tree: every span of the trace descends from the gateway's, and comes from a service of the path.
    for (const span of inTrace()) if (span !== root) expect(isUnder(span, root)).toBe(true);
    expect(new Set(inTrace().map((s) => s.service))).toEqual(
      new Set(['gateway-auth', 'ordering-pricing', 'webhook-sender']),
    );
    // The webhook's span names the receiver's origin only, and no span holds a credential.
    for (const request of [webhook, retryWebhook]) expect(request.attributes['url.full']).toBe(receiver.url);
    const exported = JSON.stringify(inTrace());
    for (const secret of [path, apiKey, webhookSigningSecret]) expect(exported).not.toContain(secret);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nspans of trace ${traceId}:\n${tree}`);
  }
}, 120_000);
