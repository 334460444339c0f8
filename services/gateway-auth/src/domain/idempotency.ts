import { IDEMPOTENCY_KEY } from '@marketplace/contracts';

/** The Idempotency-Key header rule, as the Partner API document declares it (the contract's). */
export type KeyProblem = 'missing' | 'invalid';

const KEY_PATTERN = new RegExp(IDEMPOTENCY_KEY.pattern, 'u');

export function checkIdempotencyKey(value: string | undefined): KeyProblem | undefined {
  if (value === undefined || value === '') return 'missing';
  if (value.length > IDEMPOTENCY_KEY.maxLength || !KEY_PATTERN.test(value)) return 'invalid';
  return undefined;
}
