import { AppError } from '@marketplace/errors';
import type { StoredDelivery } from '../../domain/delivery';
import { testAccount } from '../../domain/platform-account.fixture';
import type { ProviderContext } from '../context';
import { admitChange } from './admit-change';

// PATCH, cancel and return: an unknown delivery (or another account's: the store is asked by the
// account) is 404 before anything else, a missing capability 403 only for a delivery of the account.

const CAPABILITIES = ['supportsUpdates', 'supportsCancellation', 'supportsReturnToOrigin'] as const;

function contextWith(deliveries: Record<string, Partial<StoredDelivery>>) {
  const asked: { accountId: string; id: string }[] = [];
  const ctx = {
    store: {
      deliveries: {
        find: async (owner: { accountId: string }, id: string) => {
          asked.push({ accountId: owner.accountId, id });
          const found = deliveries[id];
          return found && found.accountId === owner.accountId ? (found as StoredDelivery) : undefined;
        },
      },
    },
  } as unknown as ProviderContext;
  return { ctx, asked };
}

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { kind: (error as AppError).kind, code: (error as AppError).code };
  }
  return undefined;
};

describe('admitChange', () => {
  const { ctx, asked } = contextWith({
    mine: { id: 'mine', accountId: 'acc' },
    theirs: { id: 'theirs', accountId: 'other' },
  });

  it.each(CAPABILITIES)('is 404 for an unknown delivery even without %s', async (capability) => {
    const without = testAccount({ [capability]: false });
    expect(await failure(admitChange(ctx, without, 'unknown', capability))).toEqual({
      kind: 'not_found',
      code: 'delivery.not_found',
    });
    expect(await failure(admitChange(ctx, without, 'theirs', capability))).toEqual({
      kind: 'not_found',
      code: 'delivery.not_found',
    });
    expect(asked.at(-1)).toEqual({ accountId: 'acc', id: 'theirs' });
  });

  it.each(CAPABILITIES)('is 403 for the account’s own delivery without %s, and passes with it', async (capability) => {
    expect(await failure(admitChange(ctx, testAccount({ [capability]: false }), 'mine', capability))).toEqual({
      kind: 'forbidden',
      code: 'auth.forbidden',
    });
    expect(await failure(admitChange(ctx, testAccount(), 'mine', capability))).toBeUndefined();
  });
});
