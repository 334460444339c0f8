import {
  msLeft,
  WEBHOOK_TEST_DEADLINE_MS,
  WEBHOOK_TEST_DEDUPE_SECONDS,
  WEBHOOK_TEST_REPEAT_WAIT_MS,
  webhookTestKey,
} from './webhook-test';

describe('the webhook test', () => {
  it('answers well inside the platform’s 15 seconds, and remembers a test for 30 to 60 seconds', () => {
    expect(WEBHOOK_TEST_DEADLINE_MS).toBeLessThanOrEqual(10_000);
    // A repeat waiting for the first test's outcome outlasts the first's deadline, still inside 15 s.
    expect(WEBHOOK_TEST_REPEAT_WAIT_MS).toBeGreaterThan(WEBHOOK_TEST_DEADLINE_MS);
    expect(WEBHOOK_TEST_REPEAT_WAIT_MS).toBeLessThanOrEqual(12_000);
    expect(WEBHOOK_TEST_DEDUPE_SECONDS).toBeGreaterThanOrEqual(30);
    expect(WEBHOOK_TEST_DEDUPE_SECONDS).toBeLessThanOrEqual(60);
  });

  it('names a test by account and URL without the URL or its token', () => {
    const url = 'https://platform.example.com/callbacks/tok_secret';
    const key = webhookTestKey('acc-1', url);
    expect(key).toMatch(/^webhook-test:acc-1:[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('tok_secret');
    expect(webhookTestKey('acc-1', url)).toBe(key);
    expect(webhookTestKey('acc-2', url)).not.toBe(key);
    expect(webhookTestKey('acc-1', `${url}2`)).not.toBe(key);
  });

  it('counts what is left of the deadline, never below zero', () => {
    expect(msLeft(10_000, 2_500)).toBe(7_500);
    expect(msLeft(10_000, 12_000)).toBe(0);
  });
});
