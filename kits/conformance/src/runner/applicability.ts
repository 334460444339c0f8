import type { Declaration } from '../model';
import type { ConformanceTest } from '../test-api';

/** Groups whose tests follow deliveries through the provider's sandbox: they get the lifecycle timeout on top. */
export const LIFECYCLE_GROUPS: ReadonlySet<string> = new Set([
  'status',
  'tracking',
  'update',
  'cancel',
  'return',
  'events',
  'webhook-test',
]);

export const DEFAULT_TEST_TIMEOUT_MS = 60_000;
export const NOT_SELECTED = 'not selected';

/** Why a test does not run (undefined: it runs): a capability not claimed, or left out by `only`. */
export function skipReason(
  test: ConformanceTest,
  declaration: Declaration,
  only?: readonly string[],
): string | undefined {
  if (test.capability !== 'core' && declaration.capabilities[test.capability] !== true)
    return `capability ${test.capability} not declared`;
  if (only && only.length > 0 && !only.includes(test.id)) return NOT_SELECTED;
  return undefined;
}

export function testTimeoutMs(
  test: ConformanceTest,
  declaration: Declaration,
  defaultMs = DEFAULT_TEST_TIMEOUT_MS,
): number {
  const own = test.timeoutMs ?? defaultMs;
  return LIFECYCLE_GROUPS.has(test.group) ? own + declaration.sandbox.lifecycleTimeoutSeconds * 1000 : own;
}
