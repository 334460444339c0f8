import type { ConformanceTest } from '../test-api';
import { CANCEL_TESTS } from './cancel';
import { EVENTS_TESTS } from './events';
import { RETURN_TESTS } from './return';
import { STATUS_TESTS } from './status';
import { TRACKING_TESTS } from './tracking';
import { UPDATE_TESTS } from './update';

/** The tests that follow deliveries through their lifecycle: status, tracking, update, cancel, return, events (catalog order). */
export const LIFECYCLE_TESTS: readonly ConformanceTest[] = [
  ...STATUS_TESTS,
  ...TRACKING_TESTS,
  ...UPDATE_TESTS,
  ...CANCEL_TESTS,
  ...RETURN_TESTS,
  ...EVENTS_TESTS,
];
