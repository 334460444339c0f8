import {
  attemptRecordOf,
  isCurrentAttempt,
  outcomeAfterSending,
  outcomeWithoutSending,
  reachOf,
  type SendResult,
} from './attempt-decision';
import type { Delivery } from './delivery';
import { PROVIDER_CALLBACK_POLICY, PARTNER_WEBHOOK_POLICY } from './retry-policy';

const NOW = new Date('2026-11-24T10:00:00.000Z');
const URL = 'https://platform.example/callbacks/cbt_0123456789abcdef';
const job = (attempt: number) => ({ deliveryId: 'd-1', installationId: 'i-1', round: 1, attempt, dueAt: '' });
const response = (status: number, retryAfter: string | null = null): SendResult => ({
  kind: 'response',
  status,
  latencyMs: 7,
  retryAfter,
});
const noJitter = () => 0.5;

describe('the decision after an attempt', () => {
  it('records the answer with its verdict, never more', () => {
    expect(attemptRecordOf(job(3), NOW, response(429))).toEqual({
      round: 1,
      attempt: 3,
      at: NOW,
      statusCode: 429,
      latencyMs: 7,
      errorClass: null,
      verdict: 'retry',
    });
    const timeout: SendResult = { kind: 'network', errorClass: 'timeout', message: 'timed out', latencyMs: 9 };
    expect(attemptRecordOf(job(1), NOW, timeout)).toMatchObject({
      statusCode: null,
      errorClass: 'timeout',
      verdict: 'retry',
    });
  });

  it('ends delivered, failed (naming the status) or dead-lettered after the last attempt', () => {
    const decide = (result: SendResult, attempt = 1) =>
      outcomeAfterSending(
        { policy: PARTNER_WEBHOOK_POLICY, url: URL, attempt: attemptRecordOf(job(attempt), NOW, result), result },
        NOW,
        noJitter,
      );
    expect(decide(response(200)).status).toBe('delivered');
    expect(decide(response(410))).toMatchObject({ status: 'failed', reason: 'the receiver answered 410' });
    expect(decide(response(503), 8)).toMatchObject({ status: 'dead_lettered', reason: 'no success after 8 attempts' });
    expect(decide(response(503), 1)).toEqual(
      expect.objectContaining({ status: 'pending', next: new Date(NOW.getTime() + 2 * 60_000) }),
    );
  });

  it("waits at least a provider callback's Retry-After", () => {
    const result = response(429, '600');
    const outcome = outcomeAfterSending(
      { policy: PROVIDER_CALLBACK_POLICY, url: URL, attempt: attemptRecordOf(job(1), NOW, result), result },
      NOW,
      noJitter,
    );
    expect(outcome.next).toEqual(new Date(NOW.getTime() + 600_000));
  });

  it('names a refusal without the URL or its token', () => {
    const result: SendResult = {
      kind: 'network',
      errorClass: 'refused_address',
      message: `refused ${URL}`,
      latencyMs: 1,
    };
    const outcome = outcomeAfterSending(
      { policy: PROVIDER_CALLBACK_POLICY, url: URL, attempt: attemptRecordOf(job(1), NOW, result), result },
      NOW,
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/^refused: /);
    expect(outcome.reason).not.toContain('cbt_0123456789abcdef');
  });

  it('holds an attempt that sent nothing, or ends the delivery with the reason', () => {
    const until = new Date(NOW.getTime() + 250);
    expect(outcomeWithoutSending({ send: false, status: 'pending', until, reason: 'wait' })).toEqual({
      status: 'pending',
      held: until,
      reason: 'wait',
    });
    expect(outcomeWithoutSending({ send: false, status: 'cancelled', reason: 'gone' })).toEqual({
      status: 'cancelled',
      reason: 'gone',
    });
  });

  it('tells the circuit an answer reached the endpoint, a retried network error did not, a refusal sent nothing', () => {
    expect(reachOf(attemptRecordOf(job(1), NOW, response(500)))).toBe('reached');
    const reset: SendResult = { kind: 'network', errorClass: 'reset', message: '', latencyMs: 1 };
    expect(reachOf(attemptRecordOf(job(1), NOW, reset))).toBe('unreachable');
    const refused: SendResult = { kind: 'network', errorClass: 'refused_address', message: '', latencyMs: 1 };
    expect(reachOf(attemptRecordOf(job(1), NOW, refused))).toBe('not-sent');
  });

  it('takes a job only while it is the delivery next attempt of the current round', () => {
    const delivery = { status: 'pending', round: 1, nextAttempt: 2 } as Delivery;
    expect(isCurrentAttempt(delivery, job(2))).toBe(true);
    expect(isCurrentAttempt(delivery, job(1))).toBe(false);
    expect(isCurrentAttempt({ ...delivery, round: 2 }, job(2))).toBe(false);
    expect(isCurrentAttempt({ ...delivery, status: 'delivered' }, job(2))).toBe(false);
    expect(isCurrentAttempt(undefined, job(2))).toBe(false);
  });
});
