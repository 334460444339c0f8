import type { ConformanceTest } from '../test-api';
import { LIFECYCLE_TESTS } from './lifecycle';
import { REQUEST_TESTS } from './requests';

/** Every test of the kit, in report order. */
export const ALL_TESTS: readonly ConformanceTest[] = [...REQUEST_TESTS, ...LIFECYCLE_TESTS];
