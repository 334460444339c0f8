import type { ConformanceTest } from '../test-api';
import { AUTH_TESTS } from './auth';
import { CREATE_TESTS, SCHEDULED_TESTS } from './create';
import { ERRORS_TESTS } from './errors';
import { IDEMPOTENCY_TESTS } from './idempotency';
import { LIMITS_TESTS } from './limits';
import { WEBHOOK_TEST_TESTS } from './webhook-test';

/** The tests of single requests: authentication, create, idempotency, errors, limits, the webhook test, scheduled delivery (catalog order). */
export const REQUEST_TESTS: readonly ConformanceTest[] = [
  ...AUTH_TESTS,
  ...CREATE_TESTS,
  ...SCHEDULED_TESTS,
  ...IDEMPOTENCY_TESTS,
  ...ERRORS_TESTS,
  ...LIMITS_TESTS,
  ...WEBHOOK_TEST_TESTS,
];
