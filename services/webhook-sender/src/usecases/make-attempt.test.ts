import { TOPICS, type WebhookAttempt } from '@marketplace/contracts';
import type { Logger } from '@marketplace/logging';
import type { AttemptEvent } from '../domain/attempt-event';
import type { AttemptRecord, Delivery, DeliveryStateChange, PartnerWebhookDelivery } from '../domain/delivery';
import { deliveryKinds } from '../domain/delivery-kinds';
import type { InstallationCopy } from '../domain/installation';
import type { SendResult } from '../domain/attempt-decision';
import type { WebhookContext } from './context';
import type { DeliveriesStore, InstallationCopiesStore, Locks, WebhookHttp } from './ports';
import { makeAttempt } from './make-attempt';

// The attempt's stages over in-memory ports: what is sent, what is written, what the circuit learns.

const NOW = new Date('2026-11-24T10:00:00.000Z');
const URL = 'https://partner.example/hooks/0123456789abcdef';

const installation: InstallationCopy = {
  _id: 'inst-1',
  tenantId: 'tenant-1',
  appId: 'app-1',
  status: 'installed',
  connected: true,
  webhookUrl: URL,
  subscribedEvents: ['orders.created'],
  webhookSecretSealed: 'sealed',
  revision: 1,
  changedAt: new Date(0),
};

const webhook = (changes: Partial<PartnerWebhookDelivery> = {}): PartnerWebhookDelivery => ({
  _id: 'd-1',
  kind: 'partner-webhook',
  tenantId: 'tenant-1',
  installationId: 'inst-1',
  type: 'orders.created',
  sourceEventId: 'e-1',
  occurredAt: NOW.toISOString(),
  body: '{"id":"d-1"}',
  status: 'pending',
  round: 1,
  nextAttempt: 1,
  nextAttemptAt: NOW,
  attempts: [],
  reason: null,
  createdAt: NOW,
  updatedAt: NOW,
  ...changes,
});

const job = (attempt = 1): WebhookAttempt => ({
  deliveryId: 'd-1',
  installationId: 'inst-1',
  round: 1,
  attempt,
  dueAt: NOW.toISOString(),
});

interface Written {
  state: DeliveryStateChange;
  attempt: AttemptRecord | undefined;
  events: AttemptEvent[];
}

const unused = (): never => {
  throw new Error('not used by an attempt');
};

/** A context over one stored delivery and one installation copy; `answer` is what the receiver does. */
function context(delivery: Delivery | undefined, answer: SendResult, receiver = installation) {
  const written: Written[] = [];
  const posted: { url: string; headers: Record<string, string>; body: string; contentType?: string }[] = [];
  const ended: string[] = [];
  const deliveries: DeliveriesStore = {
    findForAttempt: async (id) => (delivery?._id === id ? delivery : undefined),
    recordAttempt: async (_owner, _id, state, attempt, events) => void written.push({ state, attempt, events }),
    markSending: async () => undefined,
    terminalEventSent: async () => false,
    hasUnattemptedNonterminal: async () => false,
    pendingOfSubject: async () => [],
    create: unused,
    createForAccount: unused,
    findForTenant: unused,
    findProviderCallback: unused,
    listForInstallation: unused,
    listForAccount: unused,
    hasTerminalEvent: unused,
    startRound: unused,
  };
  const installations: InstallationCopiesStore = {
    findForTenant: async (owner, id) =>
      owner.tenantId === receiver.tenantId && id === receiver._id ? receiver : undefined,
    listForTenant: unused,
    saveIfNewer: unused,
    setSandboxFailures: unused,
    takeSandboxFailure: async () => {
      if (!receiver.sandboxFailuresLeft) return false;
      receiver.sandboxFailuresLeft -= 1;
      return true;
    },
  };
  const http: WebhookHttp = {
    post: async (url, headers, body, contentType) => {
      posted.push({ url, headers, body: body.toString('utf8'), contentType });
      return answer;
    },
  };
  const locks: Locks = { withLock: async (_name, _options, work) => ({ value: await work() }) };
  const ctx: WebhookContext = {
    store: {
      deliveries,
      installations,
      accountSecrets: { saveIfNewer: unused, findForAccount: unused },
      meta: { claimSendingSince: unused },
    },
    http,
    kinds: deliveryKinds(1),
    unseal: { installationSecret: () => 'whsec_partner', accountSecret: unused, callbackUrl: unused },
    locks,
    attemptLeaseMs: 30_000,
    metrics: { attempted: () => undefined, ended: (_kind, status) => void ended.push(status) },
    logger: { info: () => undefined } as unknown as Logger,
    now: () => NOW,
  };
  return { ctx, written, posted, ended };
}

const answered = (status: number, retryAfter: string | null = null): SendResult => ({
  kind: 'response',
  status,
  latencyMs: 12,
  retryAfter,
});

describe('makeAttempt', () => {
  it('signs and sends the stored body, records it delivered and reports the endpoint reached', async () => {
    const { ctx, written, posted, ended } = context(webhook(), answered(204));
    expect(await makeAttempt(ctx, job())).toBe('reached');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ url: URL, body: '{"id":"d-1"}', contentType: 'application/json' });
    expect(Object.keys(posted[0]!.headers)).toEqual(expect.arrayContaining(['X-Marketplace-Event-Id']));
    expect(written).toEqual([
      {
        state: { status: 'delivered', updatedAt: NOW, nextAttemptAt: null, reason: null },
        attempt: {
          round: 1,
          attempt: 1,
          at: NOW,
          statusCode: 204,
          latencyMs: 12,
          errorClass: null,
          verdict: 'delivered',
        },
        events: [],
      },
    ]);
    expect(ended).toEqual(['delivered']);
  });

  it('schedules the next attempt on the retry tier after a 503 (the endpoint answered)', async () => {
    const { ctx, written, ended } = context(webhook(), answered(503));
    expect(await makeAttempt(ctx, job())).toBe('reached');
    const [write] = written;
    expect(write!.state).toMatchObject({ status: 'pending', nextAttempt: 2, reason: null });
    expect(write!.events).toHaveLength(1);
    expect(write!.events[0]).toMatchObject({
      topic: TOPICS.webhookAttemptsRetry1,
      key: 'inst-1',
      data: { deliveryId: 'd-1', round: 1, attempt: 2 },
    });
    expect(write!.state.nextAttemptAt!.getTime()).toBeGreaterThan(NOW.getTime());
    expect(ended).toEqual([]);
  });

  it("fails a sandbox installation's attempt unsent while its scripted failures last, then sends", async () => {
    const receiver = { ...installation, sandboxFailuresLeft: 1 };
    const failing = context(webhook(), answered(204), receiver);
    await makeAttempt(failing.ctx, job());
    expect(failing.posted).toEqual([]);
    expect(failing.written[0]!.attempt).toMatchObject({ statusCode: 503, latencyMs: 0 });
    expect(failing.written[0]!.state).toMatchObject({ status: 'pending', nextAttempt: 2 });
    expect(receiver.sandboxFailuresLeft).toBe(0);
    const sending = context(webhook({ nextAttempt: 2 }), answered(204), receiver);
    await makeAttempt(sending.ctx, job(2));
    expect(sending.posted).toHaveLength(1);
    expect(sending.written[0]!.state.status).toBe('delivered');
  });

  it('dead-letters after the last attempt of the policy', async () => {
    const last = deliveryKinds(1)['partner-webhook'].policy.maxAttempts;
    const { ctx, written } = context(webhook({ nextAttempt: last }), answered(500));
    expect(await makeAttempt(ctx, job(last))).toBe('reached');
    expect(written[0]!.state).toMatchObject({ status: 'dead_lettered', reason: `no success after ${last} attempts` });
    expect(written[0]!.events).toEqual([]);
  });

  it('fails for good on a refused address, sends nothing the circuit counts, and keeps the URL out of the reason', async () => {
    const refused: SendResult = { kind: 'network', errorClass: 'refused_address', message: `no: ${URL}`, latencyMs: 1 };
    const { ctx, written } = context(webhook(), refused);
    expect(await makeAttempt(ctx, job())).toBe('not-sent');
    expect(written[0]!.state.status).toBe('failed');
    expect(written[0]!.state.reason).not.toContain('0123456789abcdef');
  });

  it('reports a retried network error as unreachable', async () => {
    const timeout: SendResult = { kind: 'network', errorClass: 'timeout', message: 'timed out', latencyMs: 5_000 };
    const { ctx, written } = context(webhook(), timeout);
    expect(await makeAttempt(ctx, job())).toBe('unreachable');
    expect(written[0]!.state.status).toBe('pending');
  });

  it('cancels without sending when the installation no longer takes the type', async () => {
    const { ctx, written, posted } = context(webhook(), answered(204), { ...installation, connected: false });
    expect(await makeAttempt(ctx, job())).toBe('not-sent');
    expect(posted).toEqual([]);
    expect(written).toEqual([
      {
        state: expect.objectContaining({ status: 'cancelled', nextAttemptAt: null }),
        attempt: undefined,
        events: [],
      },
    ]);
  });

  it('does nothing for a job that is not the delivery next attempt (a repeat, a later round)', async () => {
    for (const stale of [webhook({ nextAttempt: 2 }), webhook({ round: 2 }), webhook({ status: 'delivered' })]) {
      const { ctx, written, posted } = context(stale, answered(204));
      expect(await makeAttempt(ctx, job())).toBe('not-sent');
      expect(posted).toEqual([]);
      expect(written).toEqual([]);
    }
  });
});
