import { TOPICS } from '@marketplace/contracts';
import type { Logger } from '@marketplace/logging';
import type { AttemptEvent } from '../domain/attempt-event';
import type { DeliveryStateChange, ProviderCallbackDelivery } from '../domain/delivery';
import { deliveryKinds } from '../domain/delivery-kinds';
import type { WebhookContext } from './context';
import type { DeliveriesStore, Locks } from './ports';
import { redeliverProviderCallback } from './redeliver-provider-callback';

// Redelivery of a provider callback over in-memory ports: the contract's terminal rule and the
// delivery's state decide whether a new round starts.

const NOW = new Date('2026-11-24T10:00:00.000Z');

const callback = (changes: Partial<ProviderCallbackDelivery> = {}): ProviderCallbackDelivery => ({
  _id: 'd-1',
  kind: 'provider-callback',
  accountId: 'a-1',
  providerDeliveryId: 'p-1',
  callbackUrlSealed: 'sealed-url',
  terminal: false,
  type: 'driver.assigned',
  sourceEventId: 'e-1',
  occurredAt: NOW.toISOString(),
  body: '{}',
  status: 'dead_lettered',
  round: 1,
  nextAttempt: 8,
  nextAttemptAt: null,
  attempts: [],
  reason: 'no success after 8 attempts',
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...changes,
});

const unused = (): never => {
  throw new Error('not used by a redelivery');
};

function context(
  stored: ProviderCallbackDelivery | undefined,
  options: { terminalReceived?: boolean; locked?: boolean } = {},
) {
  const rounds: { owner: unknown; id: string; state: DeliveryStateChange; events: AttemptEvent[] }[] = [];
  const deliveries: DeliveriesStore = {
    findProviderCallback: async (id) => (stored?._id === id ? stored : undefined),
    hasTerminalEvent: async (owner, providerDeliveryId) =>
      owner.accountId === 'a-1' && providerDeliveryId === 'p-1' && (options.terminalReceived ?? false),
    startRound: async (owner, id, state, events) => void rounds.push({ owner, id, state, events }),
    create: unused,
    createForAccount: unused,
    findForAttempt: unused,
    findForTenant: unused,
    listForInstallation: unused,
    listForAccount: unused,
    terminalEventSent: unused,
    markSending: unused,
    hasUnattemptedNonterminal: unused,
    pendingOfSubject: unused,
    recordAttempt: unused,
  };
  const locks: Locks = {
    withLock: async (_name, _options, work) => (options.locked ? undefined : { value: await work() }),
  };
  const ctx: WebhookContext = {
    store: {
      deliveries,
      installations: {
        findForTenant: unused,
        listForTenant: unused,
        saveIfNewer: unused,
        setSandboxFailures: unused,
        takeSandboxFailure: unused,
      },
      accountSecrets: { saveIfNewer: unused, findForAccount: unused },
      meta: { claimSendingSince: unused },
    },
    http: { post: unused },
    kinds: deliveryKinds(1),
    unseal: {
      installationSecret: unused,
      accountSecret: unused,
      callbackUrl: () => 'https://platform.example/callbacks/cbt_0123456789abcdef',
    },
    locks,
    attemptLeaseMs: 30_000,
    metrics: { attempted: unused, ended: unused },
    logger: {} as Logger,
    now: () => NOW,
  };
  return { ctx, rounds };
}

describe('redeliverProviderCallback', () => {
  it('starts a new round with its first attempt due now, and shows only the callback origin', async () => {
    const { ctx, rounds } = context(callback());
    const record = await redeliverProviderCallback(ctx, 'd-1');
    expect(record.callbackOrigin).toBe('https://platform.example');
    expect(record.delivery).toMatchObject({
      status: 'pending',
      round: 2,
      nextAttempt: 1,
      nextAttemptAt: NOW,
      reason: null,
    });
    expect(rounds).toEqual([
      {
        owner: { accountId: 'a-1' },
        id: 'd-1',
        state: { status: 'pending', round: 2, nextAttempt: 1, nextAttemptAt: NOW, reason: null, updatedAt: NOW },
        events: [
          {
            topic: TOPICS.webhookAttempts,
            key: 'a-1',
            type: 'webhook.attempt',
            data: { deliveryId: 'd-1', installationId: 'a-1', round: 2, attempt: 1, dueAt: NOW.toISOString() },
          },
        ],
      },
    ]);
  });

  it('refuses a nonterminal event once a terminal event of its delivery was received (409)', async () => {
    const { ctx, rounds } = context(callback(), { terminalReceived: true });
    await expect(redeliverProviderCallback(ctx, 'd-1')).rejects.toMatchObject({
      code: 'provider_callback.superseded',
    });
    expect(rounds).toEqual([]);
  });

  it('redelivers a terminal event whatever else its delivery has', async () => {
    const { ctx, rounds } = context(callback({ terminal: true, type: 'delivery.delivered' }), {
      terminalReceived: true,
    });
    await redeliverProviderCallback(ctx, 'd-1');
    expect(rounds).toHaveLength(1);
  });

  it('refuses a callback still being attempted (409), an unknown one (404), and answers busy when locked', async () => {
    await expect(redeliverProviderCallback(context(callback({ status: 'pending' })).ctx, 'd-1')).rejects.toMatchObject({
      code: 'webhook.delivery_in_progress',
    });
    await expect(redeliverProviderCallback(context(undefined).ctx, 'd-1')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(redeliverProviderCallback(context(callback(), { locked: true }).ctx, 'd-1')).rejects.toMatchObject({
      code: 'resource.busy',
    });
  });
});
