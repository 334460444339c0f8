import { createHash } from 'node:crypto';
import { WEBHOOK_TEST_LIMITS } from '@marketplace/contracts';

/** The whole `POST /webhooks/test` call: name resolution, connection and answer (ours; the platform waits 15 s). */
export const WEBHOOK_TEST_DEADLINE_MS = WEBHOOK_TEST_LIMITS.deadlineSeconds * 1_000;

/**
 * How long a repeat that found the first test running waits for its outcome, from its own start:
 * past the send's deadline, since the first began earlier and ends by its own.
 */
export const WEBHOOK_TEST_REPEAT_WAIT_MS = WEBHOOK_TEST_LIMITS.repeatWaitSeconds * 1_000;

/** How long a test's outcome answers a repeat of it (same account, same URL) instead of a new event. */
export const WEBHOOK_TEST_DEDUPE_SECONDS = WEBHOOK_TEST_LIMITS.dedupeWindowSeconds;

/** How often a repeat that found the first test still running looks for its outcome. */
export const WEBHOOK_TEST_POLL_MS = 100;

/**
 * The name a test is remembered by: the account and a SHA-256 of the URL tested, never the URL
 * itself (its path holds the callback's confidential token, and whoever reads Redis must not learn it).
 */
export const webhookTestKey = (accountId: string, url: string): string =>
  `webhook-test:${accountId}:${createHash('sha256').update(url, 'utf8').digest('base64url')}`;

/** What is left of the call's deadline at `nowMs` (never negative). */
export const msLeft = (deadlineAtMs: number, nowMs: number): number => Math.max(0, deadlineAtMs - nowMs);
