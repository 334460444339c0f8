import { randomBytes } from 'node:crypto';
import {
  localEnv,
  signTestBearerToken,
  startReceiver,
  waitFor,
  type Received,
  type Receiver,
  type ReceiverAnswer,
} from '@marketplace/testing';
import { startWebhookCluster, type WebhookCluster } from './support/cluster';
import {
  deliveryEvent,
  flatEvent,
  providerEventsPublisher,
  testAccount,
  testProviderDelivery,
  type PlatformWebhookEvent,
  type TestAccount,
  type TestProviderDelivery,
} from './support/provider-events';

// The contract's "Events" rule 4, end to end: after a terminal event, the platform's callback
// receives no nonterminal event of that delivery. The receiver makes it hard: it fails the first
// attempts of every nonterminal event with a 503 after holding the connection a while, so their
// retries are due or on the wire while the terminal event comes; and once, it never answers the
// terminal events and the sender is killed with them on the wire (sent, never recorded), so that
// the restarted sender finds nonterminal retries due and nothing recorded of the terminal event.
// The receiver's order of arrival is the proof: no nonterminal request after the first terminal one.
//
// Retry delays are divided by 100 (30 s → 300 ms). The sender gets a transport key of its own
// (other senders on the stack read `provider-events` too, and cannot open these events).
jest.setTimeout(600_000);

let cluster: WebhookCluster;
let receiver: Receiver;
let publisher: Awaited<ReturnType<typeof providerEventsPublisher>>;
const transportKey = randomBytes(32);

/**
 * The first callbacks wait for the sender's new consumer group to join and read the topic's
 * history (every test file's events; over 2 minutes on a busy development machine).
 */
const FIRST_WAIT_MS = 240_000;
/** A killed sender's group member and callback lock outlive it (session 30 s, lease 33 s here). */
const AFTER_RESTART_MS = 150_000;
const NONTERMINAL: Array<[string, PlatformWebhookEvent['status']]> = [
  ['delivery.accepted', 'provider_accepted'],
  ['driver.assigned', 'driver_assigned'],
  ['driver.location_updated', 'on_the_way'],
  ['eta.updated', 'on_the_way'],
];
const TERMINAL = 'delivery.delivered';
/** Each nonterminal event's first attempts: 503 after holding the connection this long. */
const FAILING = { attempts: 2, answer: { status: 503, delayMs: 300 } satisfies ReceiverAnswer };

const adminToken = () =>
  signTestBearerToken(
    Buffer.from(localEnv().PROVIDER_ADMIN_TOKEN_SECRET!, 'base64'),
    { role: 'admin', sub: 'provider-ops' },
    new Date(Date.now() + 3_600_000),
  );
const eventTypeOf = (r: Received) => JSON.parse(r.body.toString('utf8')).eventType as string;

beforeAll(async () => {
  receiver = await startReceiver();
  publisher = await providerEventsPublisher();
  const key = { WEBHOOK_SECRET_TRANSPORT_KEY: transportKey.toString('base64') };
  // 10 s for an answer: long enough for every terminal event to be on the wire at the kill.
  cluster = await startWebhookCluster(
    { ...key, WEBHOOK_RETRY_TIME_SCALE: '100', WEBHOOK_RESPONSE_TIMEOUT_MS: '10000' },
    key,
  );
}, 180_000);

afterEach(() => {
  receiver.respond = () => 200;
});

afterAll(async () => {
  await cluster?.stop();
  await publisher?.close();
  await receiver?.close();
});

/** `count` provider deliveries, `perAccount` to an account. */
function providerDeliveries(count: number, perAccount: number): TestProviderDelivery[] {
  const deliveries: TestProviderDelivery[] = [];
  let account: TestAccount | undefined;
  for (let i = 0; i < count; i++) {
    if (i % perAccount === 0) account = testAccount(transportKey);
    deliveries.push(testProviderDelivery(transportKey, account!, receiver.url));
  }
  return deliveries;
}

/** Each delivery's nonterminal events, then its terminal one. */
async function publishEvents(deliveries: TestProviderDelivery[]): Promise<void> {
  // One delivery's events on one partition (keyed by the delivery), in the order they happened.
  await publisher.publish(
    deliveries.flatMap((d) => [
      ...NONTERMINAL.map(([type, status]) => deliveryEvent(d, flatEvent(d, type, status), false)),
      deliveryEvent(d, flatEvent(d, TERMINAL, 'delivered'), true),
    ]),
  );
}

/**
 * For the deliveries' callbacks: fails the first attempts of every nonterminal event, after a
 * while; `terminal` answers the terminal events. Anything else (a callback of an earlier test) is 200.
 */
function failNonterminal(
  deliveries: TestProviderDelivery[],
  terminal: (req: Received) => number | ReceiverAnswer | 'hang',
  fails: (nth: number) => boolean = (nth) => nth <= FAILING.attempts,
) {
  const paths = new Set(deliveries.map((d) => d.path));
  const seen = new Map<string, number>();
  receiver.respond = (req) => {
    if (!paths.has(req.path)) return 200;
    const type = eventTypeOf(req);
    if (type === TERMINAL) return terminal(req);
    const key = `${req.path} ${type}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    return fails(seen.get(key)!) ? FAILING.answer : 200;
  };
}

/** The delivery's callbacks, once none is pending any more (nothing more will be sent) and the terminal one was delivered. */
async function settled(d: TestProviderDelivery, timeoutMs: number): Promise<any[]> {
  return waitFor(
    `the callbacks of ${d.providerDeliveryId} to settle`,
    async () => {
      const res = await fetch(
        `${cluster.sender.url}/admin/v1/provider-callbacks?accountId=${d.account.accountId}&providerDeliveryId=${d.providerDeliveryId}`,
        { headers: { authorization: `Bearer ${adminToken()}` }, signal: AbortSignal.timeout(10_000) },
      );
      if (res.status !== 200) return undefined;
      const callbacks = (await res.json()) as any[];
      const done =
        callbacks.length === NONTERMINAL.length + 1 &&
        callbacks.every((c) => c.status !== 'pending') &&
        callbacks.some((c) => c.type === TERMINAL && c.status === 'delivered');
      return done ? callbacks : undefined;
    },
    timeoutMs,
    250,
  );
}

/** What the receiver got of the delivery, in order of arrival, from the first terminal request on. */
function afterTerminal(d: TestProviderDelivery): string[] {
  const types = receiver.at(d.path).map(eventTypeOf);
  const first = types.indexOf(TERMINAL);
  expect(first).toBeGreaterThanOrEqual(0);
  return types.slice(first);
}

function expectTerminalLast(deliveries: TestProviderDelivery[], callbacks: any[][]): void {
  for (const [i, d] of deliveries.entries()) {
    expect({ delivery: i, after: afterTerminal(d).filter((type) => type !== TERMINAL) }).toEqual({
      delivery: i,
      after: [],
    });
    // Each nonterminal event either reached the platform before the terminal one or was dropped.
    for (const c of callbacks[i]!.filter((c) => !c.terminal))
      expect(
        c.status === 'delivered' ||
          (c.status === 'cancelled' && c.reason === 'superseded: a terminal event of the delivery was sent'),
      ).toBe(true);
  }
}

it('sends no nonterminal event after the terminal one while nonterminal retries are due and on the wire', async () => {
  // 12 deliveries, 3 accounts: 4 attempts at once per account, so retries and terminal events interleave.
  const deliveries = providerDeliveries(12, 4);
  let terminalAnswers = 0;
  failNonterminal(deliveries, () => ({ status: 200, delayMs: ++terminalAnswers % 2 === 0 ? 200 : 0 }));
  await publishEvents(deliveries);
  const callbacks = [];
  for (const d of deliveries) callbacks.push(await settled(d, FIRST_WAIT_MS));
  expectTerminalLast(deliveries, callbacks);
});

it('sends no nonterminal event after a terminal one the sender was killed sending (sent, never recorded)', async () => {
  // One delivery per account: each delivery's attempts run side by side, all terminal events at once.
  const count = 4;
  const deliveries = providerDeliveries(count, 1);
  const onTheWire = new Set<string>();
  let killed = false;
  failNonterminal(
    deliveries,
    (req) => {
      if (killed || onTheWire.has(req.path)) return 200;
      onTheWire.add(req.path);
      if (onTheWire.size === count) {
        // Every terminal event is on the wire and none is answered: the sender dies before recording one.
        killed = true;
        cluster.sender.child.kill('SIGKILL');
      }
      return 'hang';
    },
    // Every nonterminal attempt fails until the kill: all of them are still to be sent then.
    () => !killed,
  );
  await publishEvents(deliveries);
  await waitFor('every terminal event on the wire, and the kill', () => killed || undefined, FIRST_WAIT_MS);
  await cluster.startSender();
  const callbacks = [];
  for (const d of deliveries) callbacks.push(await settled(d, AFTER_RESTART_MS));
  expectTerminalLast(deliveries, callbacks);
  // Each was attempted (and failed) before the terminal event and was due again at the restart: dropped.
  const nonterminal = callbacks.flat().filter((c) => !c.terminal);
  expect(nonterminal.map((c) => [c.status, c.attemptCount > 0])).toEqual(nonterminal.map(() => ['cancelled', true]));
});
