import type { IdempotencyRecordDoc } from '../adapters/store/documents';
import { idempotencyRecordId } from '../domain/ids';
import type { GatewayContext, IdempotencyOutcome } from './context';
import type { GatewayStore, Port } from './ports';
import type { RedisLock } from '@marketplace/redis';
import { runIdempotentRequest, type IdempotentRequest, type StoredResponse } from './run-idempotent-request';

// The replay rules of idempotent requests, with the records and the lock as in-memory fakes:
// a key runs once, a repeat replays its stored answer, a reused key with another request is
// refused, an error is not stored, and a key held by a request still running is reported as such.

const owner = { tenantId: 't-1', installationId: 'i-1' };
const settings = { retentionHours: 24, waitMs: 60, lockTtlMs: 1_000 };
const NOW = new Date('2026-01-01T00:00:00Z');

function fakes(options: { lockFree?: boolean } = {}) {
  const records = new Map<string, IdempotencyRecordDoc>();
  const outcomes: IdempotencyOutcome[] = [];
  const idempotencyRecords: Pick<GatewayStore['idempotencyRecords'], 'findUnexpired' | 'save'> = {
    findUnexpired: async (o, keyHash, now) => {
      const record = records.get(idempotencyRecordId(o, keyHash));
      return record && record.expiresAt > now ? record : undefined;
    },
    save: async (o, keyHash, content) => {
      records.set(idempotencyRecordId(o, keyHash), { _id: idempotencyRecordId(o, keyHash), ...o, ...content });
    },
  };
  const locks: Pick<Port<RedisLock>, 'acquire' | 'release'> = {
    acquire: async () => (options.lockFree === false ? undefined : 'token'),
    release: async () => undefined,
  };
  const ctx = {
    store: { idempotencyRecords },
    locks,
    metrics: { rateLimited: () => undefined, idempotency: (outcome: IdempotencyOutcome) => outcomes.push(outcome) },
    now: () => NOW,
  } as unknown as GatewayContext;
  return { ctx, records, outcomes };
}

const request = (fingerprint: string): IdempotentRequest => ({ owner, key: 'key-1', fingerprint });
const answer = (status: number, body = '{}'): StoredResponse => ({ status, headers: {}, body });

describe('runIdempotentRequest', () => {
  it('runs a first request and stores its 2xx answer for the retention', async () => {
    const { ctx, records, outcomes } = fakes();
    const result = await runIdempotentRequest(ctx, settings, request('POST /orders {}'), async () => answer(201));
    expect(result).toEqual({ response: answer(201), replayed: false });
    expect([...records.values()][0]).toMatchObject({
      fingerprint: 'POST /orders {}',
      status: 201,
      expiresAt: new Date(NOW.getTime() + 24 * 3_600_000),
    });
    expect(outcomes).toEqual(['stored']);
  });

  it('replays the stored answer to the same request without running it again', async () => {
    const { ctx, outcomes } = fakes();
    await runIdempotentRequest(ctx, settings, request('same'), async () => answer(201, '{"id":1}'));
    const execute = jest.fn(async () => answer(201, '{"id":2}'));
    const result = await runIdempotentRequest(ctx, settings, request('same'), execute);
    expect(result).toEqual({ response: answer(201, '{"id":1}'), replayed: true });
    expect(execute).not.toHaveBeenCalled();
    expect(outcomes).toEqual(['stored', 'replayed']);
  });

  it('refuses the key with a different request (409 idempotency.key_reused)', async () => {
    const { ctx, outcomes } = fakes();
    await runIdempotentRequest(ctx, settings, request('first'), async () => answer(200));
    await expect(runIdempotentRequest(ctx, settings, request('second'), async () => answer(200))).rejects.toMatchObject(
      { code: 'idempotency.key_reused' },
    );
    expect(outcomes).toEqual(['stored', 'conflict']);
  });

  it('does not store an error: the key stays usable for a corrected retry', async () => {
    const { ctx, records, outcomes } = fakes();
    await runIdempotentRequest(ctx, settings, request('wrong price'), async () => answer(422));
    expect(records.size).toBe(0);
    const retry = await runIdempotentRequest(ctx, settings, request('right price'), async () => answer(201));
    expect(retry.replayed).toBe(false);
    expect(outcomes).toEqual(['not_stored', 'stored']);
  });

  it('answers 409 idempotency.request_in_progress when the key stays held past the wait', async () => {
    const { ctx, outcomes } = fakes({ lockFree: false });
    const execute = jest.fn(async () => answer(201));
    await expect(runIdempotentRequest(ctx, settings, request('any'), execute)).rejects.toMatchObject({
      code: 'idempotency.request_in_progress',
    });
    expect(execute).not.toHaveBeenCalled();
    expect(outcomes).toEqual(['in_progress']);
  });
});
