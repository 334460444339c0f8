import type { PartnerWebhookDelivery, ProviderCallbackDelivery } from '../domain/delivery';
import type { InstallationCopy } from '../domain/installation';
import { TERMINAL_HOLD } from '../domain/provider-callback';
import { SEQUENCE_HOLD } from '../domain/webhook-sequence';
import type { WebhookContext } from './context';
import { resolveAttemptTarget as targetOf } from './resolve-attempt-target';

const NOW = new Date('2026-11-24T10:00:00.000Z');
const URL = 'https://platform.example/callbacks/cbt_0123456789abcdef';
const SECRET = 'whsec_account_secret_0123456789';

const callback = (terminal: boolean): ProviderCallbackDelivery => ({
  _id: 'd-1',
  kind: 'provider-callback',
  accountId: 'a-1',
  providerDeliveryId: 'p-1',
  callbackUrlSealed: 'sealed-url',
  terminal,
  type: terminal ? 'delivery.delivered' : 'driver.location_updated',
  sourceEventId: 'e-1',
  occurredAt: '2026-11-23T10:00:00.000Z',
  body: '{}',
  status: 'pending',
  round: 1,
  nextAttempt: 1,
  nextAttemptAt: null,
  attempts: [],
  reason: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

const callbackAttempt = {
  round: 1,
  attempt: 1,
  at: NOW,
  statusCode: 503,
  latencyMs: 12,
  errorClass: null,
  verdict: 'retry' as const,
};

/** A context whose store and keys answer as told; only what targetOf reads. */
function context(options: {
  terminalSent?: boolean;
  earlierUnsent?: boolean;
  secret?: string | null;
  opens?: { secret: boolean; url: boolean };
}) {
  const opens = options.opens ?? { secret: true, url: true };
  const asked: string[] = [];
  const ctx = {
    store: {
      deliveries: {
        terminalEventSent: async (owner: { accountId: string }, providerDeliveryId: string) => {
          asked.push(`terminal sent ${owner.accountId} ${providerDeliveryId}`);
          return options.terminalSent ?? false;
        },
        hasUnattemptedNonterminal: async (owner: { accountId: string }, providerDeliveryId: string) => {
          asked.push(`earlier unsent ${owner.accountId} ${providerDeliveryId}`);
          return options.earlierUnsent ?? false;
        },
      },
      accountSecrets: {
        findForAccount: async ({ accountId }: { accountId: string }) =>
          options.secret === null ? undefined : { _id: accountId, sealed: 'sealed-secret', rotatedAt: new Date(0) },
      },
    },
    now: () => NOW,
    unseal: {
      accountSecret: (accountId: string, sealed: string) => {
        if (!opens.secret || accountId !== 'a-1' || sealed !== 'sealed-secret') throw new Error('no');
        return SECRET;
      },
      callbackUrl: (providerDeliveryId: string, sealed: string) => {
        if (!opens.url || providerDeliveryId !== 'p-1' || sealed !== 'sealed-url') throw new Error(`no: ${URL}`);
        return URL;
      },
    },
  } as unknown as WebhookContext;
  return { ctx, asked };
}

describe('targetOf a provider callback', () => {
  it("goes to the delivery's callback URL with the account's newest secret", async () => {
    expect(await targetOf(context({}).ctx, callback(false))).toEqual({ send: true, url: URL, secret: SECRET });
  });

  it('cancels a nonterminal event once a terminal event of its delivery was attempted', async () => {
    const { ctx, asked } = context({ terminalSent: true });
    expect(await targetOf(ctx, callback(false))).toEqual({
      send: false,
      status: 'cancelled',
      reason: 'superseded: a terminal event of the delivery was sent',
    });
    expect(asked).toEqual(['terminal sent a-1 p-1']);
  });

  it("holds a terminal event's first attempt while an earlier event of its delivery waits for its first", async () => {
    const { ctx, asked } = context({ earlierUnsent: true });
    const fresh = { ...callback(true), createdAt: new Date(NOW.getTime() - 1_000) };
    expect(await targetOf(ctx, fresh)).toEqual({
      send: false,
      status: 'pending',
      until: new Date(NOW.getTime() + TERMINAL_HOLD.stepMs),
      reason: 'waiting for the earlier events of the delivery to be sent first',
    });
    expect(asked).toEqual(['earlier unsent a-1 p-1']);
  });

  it('sends a terminal event once its earlier events were attempted, or past the hold, or on a later attempt', async () => {
    const fresh = { ...callback(true), createdAt: new Date(NOW.getTime() - 1_000) };
    expect(await targetOf(context({ earlierUnsent: false }).ctx, fresh)).toMatchObject({ send: true });
    const old = { ...fresh, createdAt: new Date(NOW.getTime() - TERMINAL_HOLD.maxMs) };
    expect(await targetOf(context({ earlierUnsent: true }).ctx, old)).toMatchObject({ send: true });
    const retried = { ...fresh, attempts: [callbackAttempt] };
    expect(await targetOf(context({ earlierUnsent: true }).ctx, retried)).toMatchObject({ send: true });
  });

  it('does not hold a terminal event again whose first request already left unrecorded (a crash mid-request)', async () => {
    // Its delivery's nonterminal events are superseded from the mark on: waiting for them is pointless.
    const { ctx, asked } = context({ earlierUnsent: true });
    const resent = { ...callback(true), createdAt: new Date(NOW.getTime() - 1_000), sendStartedAt: NOW };
    expect(await targetOf(ctx, resent)).toMatchObject({ send: true });
    expect(asked).toEqual([]);
  });

  it('never asks whether a terminal event was sent before sending one (it is the terminal event)', async () => {
    const { ctx, asked } = context({ terminalSent: true });
    expect(await targetOf(ctx, { ...callback(true), createdAt: NOW })).toMatchObject({ send: true });
    expect(asked).toEqual(['earlier unsent a-1 p-1']);
  });

  it.each([
    ['no secret is known', { secret: null }],
    ['the secret does not open', { opens: { secret: false, url: true } }],
    ['the URL does not open', { opens: { secret: true, url: false } }],
  ])('fails when %s, with a reason that names neither the URL nor the secret', async (_what, options) => {
    const target = await targetOf(context(options).ctx, callback(false));
    expect(target).toMatchObject({ send: false, status: 'failed' });
    const text = JSON.stringify(target);
    for (const secret of [URL, 'cbt_0123456789abcdef', SECRET, 'platform.example']) expect(text).not.toContain(secret);
  });
});

/** A connected installation taking orders.created, its secret sealed as `sealed-current`. */
const partnerInstallation: InstallationCopy = {
  _id: 'inst-1',
  tenantId: 'tenant-1',
  appId: 'app-1',
  status: 'Connected',
  connected: true,
  webhookUrl: 'https://partner.example/hooks',
  subscribedEvents: ['orders.created'],
  webhookSecretSealed: 'sealed-current',
  revision: 2,
  changedAt: NOW,
};

describe('a partner webhook during a secret rotation overlap', () => {
  const installation = partnerInstallation;
  const webhook = { kind: 'partner-webhook', tenantId: 'tenant-1', installationId: 'inst-1', type: 'orders.created' };
  /** Unseals `sealed-<name>` as `whsec_<name>`, bound to inst-1. */
  const partnerContext = (copy: InstallationCopy) =>
    ({
      store: { installations: { findForTenant: async () => copy } },
      now: () => NOW,
      unseal: {
        installationSecret: (installationId: string, sealed: string) => {
          if (installationId !== 'inst-1') throw new Error('no');
          return sealed.replace('sealed-', 'whsec_');
        },
      },
    }) as unknown as WebhookContext;
  const target = (copy: InstallationCopy) => targetOf(partnerContext(copy), webhook as PartnerWebhookDelivery);
  const overlapUntil = (expiresAt: Date | null): InstallationCopy => ({
    ...installation,
    previousWebhookSecretSealed: 'sealed-previous',
    previousWebhookSecretExpiresAt: expiresAt,
  });

  it('carries the previous secret while the overlap lasts', async () => {
    expect(await target(overlapUntil(new Date(NOW.getTime() + 1)))).toEqual({
      send: true,
      url: 'https://partner.example/hooks',
      secret: 'whsec_current',
      previousSecret: 'whsec_previous',
    });
  });

  it.each([
    ['after the overlap', overlapUntil(NOW)],
    ['without an expiry', overlapUntil(null)],
    ['for a copy kept before overlaps existed', installation],
  ])('signs with the current secret alone %s', async (_when, copy) => {
    expect(await target(copy)).toEqual({
      send: true,
      url: 'https://partner.example/hooks',
      secret: 'whsec_current',
    });
  });
});

describe('a partner webhook behind an earlier webhook of its order (the per-order sequence)', () => {
  const installation: InstallationCopy = {
    ...partnerInstallation,
    subscribedEvents: ['orders.created', 'orders.cancelled'],
  };
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  const cancelled = {
    _id: 'wh-cancel',
    kind: 'partner-webhook',
    tenantId: 'tenant-1',
    installationId: 'inst-1',
    type: 'orders.cancelled',
    subject: 'order:o-1',
    createdAt: at(-1_000),
  } as PartnerWebhookDelivery;
  type Pending = Pick<PartnerWebhookDelivery, '_id' | 'createdAt' | 'nextAttemptAt'>;
  /** The store answers `pending` (the caller's own delivery among them, as the query finds it). */
  const sequenceContext = (pending: Pending[]) => {
    const asked: string[] = [];
    const ctx = {
      store: {
        installations: { findForTenant: async () => installation },
        deliveries: {
          pendingOfSubject: async (
            owner: { tenantId: string; installationId: string },
            subject: string,
            upTo: Date,
          ) => {
            asked.push(`${owner.tenantId} ${owner.installationId} ${subject} ${upTo.toISOString()}`);
            return pending;
          },
        },
      },
      now: () => NOW,
      unseal: { installationSecret: () => 'whsec_current' },
    } as unknown as WebhookContext;
    return { ctx, asked };
  };
  const own: Pending = { _id: 'wh-cancel', createdAt: at(-1_000), nextAttemptAt: NOW };

  it('waits while the order’s creation to the same installation is pending, until its next attempt', async () => {
    const { ctx, asked } = sequenceContext([
      own,
      { _id: 'wh-create', createdAt: at(-1_200), nextAttemptAt: at(120_000) },
    ]);
    expect(await targetOf(ctx, cancelled)).toEqual({
      send: false,
      status: 'pending',
      until: at(120_000 + SEQUENCE_HOLD.stepMs),
      reason: 'waiting for an earlier webhook of the order to be delivered first',
    });
    expect(asked).toEqual([`tenant-1 inst-1 order:o-1 ${at(-1_000).toISOString()}`]);
  });

  it('looks again shortly while the earlier attempt is on the wire (its next attempt already due)', async () => {
    const { ctx } = sequenceContext([{ _id: 'wh-create', createdAt: at(-1_200), nextAttemptAt: at(-1_200) }, own]);
    expect(await targetOf(ctx, cancelled)).toMatchObject({ send: false, until: at(SEQUENCE_HOLD.stepMs) });
  });

  it('breaks a tie of creation times by id, so two webhooks never wait for each other', async () => {
    const tie = (id: string): Pending => ({ _id: id, createdAt: at(-1_000), nextAttemptAt: NOW });
    const first = sequenceContext([tie('wh-a'), own]);
    expect(await targetOf(first.ctx, cancelled)).toMatchObject({ send: false, status: 'pending' });
    const second = sequenceContext([tie('wh-z'), own]);
    expect(await targetOf(second.ctx, cancelled)).toMatchObject({ send: true });
  });

  it('goes when nothing earlier of its order is pending', async () => {
    const { ctx } = sequenceContext([own]);
    expect(await targetOf(ctx, cancelled)).toEqual({
      send: true,
      url: 'https://partner.example/hooks',
      secret: 'whsec_current',
    });
  });

  it('asks nothing for the first event of an order, nor for a webhook about no order', async () => {
    const { ctx, asked } = sequenceContext([]);
    const created = { ...cancelled, _id: 'wh-create', type: 'orders.created' };
    const { subject: _none, ...test } = { ...cancelled, _id: 'wh-test', type: 'system.test' };
    expect(await targetOf(ctx, created)).toMatchObject({ send: true });
    expect(await targetOf(ctx, test as PartnerWebhookDelivery)).toMatchObject({ send: true });
    expect(asked).toEqual([]);
  });
});
