import { createHash } from 'node:crypto';
import { conflict } from '@marketplace/errors';
import type { InstallationOwner } from '@marketplace/store';
import type { IdempotencyRecordDoc } from '../adapters/store/documents';
import { idempotencyRecordId } from '../domain/ids';
import type { GatewayContext } from './context';

/** A response as stored for replay: status, the headers that matter, the exact body text. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotentRequest {
  /** Keys are scoped per installation. */
  owner: InstallationOwner;
  key: string;
  /** Method, path and canonical JSON body (see domain/idempotency). */
  fingerprint: string;
}

export interface IdempotencySettings {
  retentionHours: number;
  waitMs: number;
  /** How long the lock lasts if its holder dies: longer than any request can take. */
  lockTtlMs: number;
}

const reused = () => conflict('idempotency.key_reused', 'This Idempotency-Key was used for a different request.');
const inProgress = () =>
  conflict(
    'idempotency.request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry later.',
  );

/**
 * Runs a POST or PATCH at most once per installation and key. The stored response lives in
 * MongoDB (it survives a Redis restart); a Redis lock makes concurrent requests with one key wait
 * for the first and then replay its result. Only 2xx responses are stored: an error changed
 * nothing, so the key stays usable (a corrected retry after a price mismatch, say).
 */
export async function runIdempotentRequest(
  ctx: GatewayContext,
  settings: IdempotencySettings,
  request: IdempotentRequest,
  execute: () => Promise<StoredResponse>,
): Promise<{ response: StoredResponse; replayed: boolean }> {
  const keyHash = createHash('sha256').update(request.key).digest('base64url');
  const lockName = `idem:${idempotencyRecordId(request.owner, keyHash)}`;
  const deadline = Date.now() + settings.waitMs;
  // Lock first, then read: a first request (the common case) costs one database read, and a
  // record read under the lock cannot be about to be written by someone else.
  for (;;) {
    const token = await ctx.locks.acquire(lockName, settings.lockTtlMs);
    if (token) {
      try {
        const stored = await ctx.store.idempotencyRecords.findUnexpired(request.owner, keyHash, ctx.now());
        if (stored) return replay(ctx, stored, request);
        const response = await execute();
        const success = response.status >= 200 && response.status < 300;
        if (success) await storeRecord(ctx, settings, keyHash, request, response);
        ctx.metrics.idempotency(success ? 'stored' : 'not_stored');
        return { response, replayed: false };
      } finally {
        await ctx.locks.release(lockName, token).catch(() => undefined);
      }
    }
    // Someone else holds the key: it may be done already (replay), else wait for it.
    const stored = await ctx.store.idempotencyRecords.findUnexpired(request.owner, keyHash, ctx.now());
    if (stored) return replay(ctx, stored, request);
    if (Date.now() >= deadline) {
      ctx.metrics.idempotency('in_progress');
      throw inProgress();
    }
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
  }
}

function replay(ctx: GatewayContext, record: IdempotencyRecordDoc, request: IdempotentRequest) {
  if (record.fingerprint !== request.fingerprint) {
    ctx.metrics.idempotency('conflict');
    throw reused();
  }
  ctx.metrics.idempotency('replayed');
  return { response: { status: record.status, headers: record.headers, body: record.body }, replayed: true };
}

async function storeRecord(
  ctx: GatewayContext,
  settings: IdempotencySettings,
  keyHash: string,
  request: IdempotentRequest,
  response: StoredResponse,
) {
  const now = ctx.now();
  // Under the lock: an expired record with the same id may still be there; save replaces it.
  await ctx.store.idempotencyRecords.save(request.owner, keyHash, {
    fingerprint: request.fingerprint,
    status: response.status,
    headers: response.headers,
    body: response.body,
    createdAt: now,
    expiresAt: new Date(now.getTime() + settings.retentionHours * 3_600_000),
  });
}
