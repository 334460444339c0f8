import { AppError } from '@marketplace/errors';
import { DLT_HEADER } from './headers';
import {
  DeadLetter,
  deadLetterMessage,
  decodeFailure,
  isWireFormat,
  nextBackoff,
  shouldRetry,
  toDeadLetter,
} from './failure';

const unavailable = new AppError('unavailable', 'db.down', 'database unavailable');
const invalid = new AppError('validation', 'order.invalid', 'bad order');
const networkError = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('shouldRetry', () => {
  it('retries a retriable failure however many attempts it took', () => {
    expect(shouldRetry(unavailable, 1, 3)).toBe(true);
    expect(shouldRetry(unavailable, 500, 3)).toBe(true);
    expect(shouldRetry(networkError, 50, 3)).toBe(true);
    expect(shouldRetry(Object.assign(new Error('kafka'), { retriable: true }), 50, 3)).toBe(true);
  });

  it('retries an unknown error only up to the limit', () => {
    const bug = new TypeError('x is undefined');
    expect([1, 2, 3].map((attempt) => shouldRetry(bug, attempt, 3))).toEqual([true, true, false]);
  });

  it('never retries a permanent failure', () => {
    expect(shouldRetry(invalid, 1, 3)).toBe(false);
    expect(shouldRetry(new DeadLetter('no id', 'event.missing_id'), 1, 3)).toBe(false);
  });
});

describe('nextBackoff', () => {
  it('doubles up to the cap', () => {
    const delays = [200];
    for (let i = 0; i < 9; i++) delays.push(nextBackoff(delays.at(-1)!, 30_000));
    expect(delays).toEqual([200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
  });
});

describe('decodeFailure', () => {
  it('dead-letters a value that breaks its writer schema, naming the paths', () => {
    const failure = decodeFailure(
      Object.assign(new Error('invalid payload'), {
        name: 'ConfluentSchemaRegistryValidationError',
        paths: [['/orderId']],
      }),
    );
    expect(failure).toBeInstanceOf(DeadLetter);
    expect(failure).toMatchObject({ code: 'event.schema_violation', reason: expect.stringContaining('/orderId') });
  });

  it('retries when the registry is unreachable or failing', () => {
    expect(decodeFailure(networkError)).toBe('retry');
    expect(decodeFailure(Object.assign(new Error('boom'), { status: 503 }))).toBe('retry');
  });

  it('dead-letters what cannot be decoded at all', () => {
    expect(decodeFailure(new SyntaxError('Unexpected token } in JSON'))).toMatchObject({ code: 'event.undecodable' });
    expect(decodeFailure(Object.assign(new Error('Schema not found'), { status: 404 }))).toMatchObject({
      code: 'event.undecodable',
    });
  });
});

describe('isWireFormat', () => {
  it('wants a zero magic byte and a four-byte schema id', () => {
    expect(isWireFormat(Buffer.from([0, 0, 0, 0, 7, 123]))).toBe(true);
    expect(isWireFormat(Buffer.from('{"a":1}'))).toBe(false);
    expect(isWireFormat(Buffer.from([0, 0, 0]))).toBe(false);
    expect(isWireFormat(null)).toBe(false);
  });
});

describe('dead letters', () => {
  it('keep the stable code of an AppError and a generic one otherwise', () => {
    expect(toDeadLetter(invalid)).toMatchObject({ code: 'order.invalid', reason: 'handler failed: bad order' });
    expect(toDeadLetter(new Error('x'))).toMatchObject({ code: 'handler.failed' });
  });

  it('carry the original bytes and headers plus where they came from and why', () => {
    const message = { key: Buffer.from('k'), value: Buffer.from('raw'), offset: '41', headers: { 'event-id': 'e-1' } };
    const letter = deadLetterMessage(
      { topic: 'orders', partition: 2, groupId: 'svc.orders', message },
      new DeadLetter('r'.repeat(5000), 'event.undecodable'),
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(letter.key).toBe(message.key);
    expect(letter.value).toBe(message.value);
    expect(letter.headers).toEqual({
      'event-id': 'e-1',
      [DLT_HEADER.reason]: 'r'.repeat(2000),
      [DLT_HEADER.errorCode]: 'event.undecodable',
      [DLT_HEADER.sourceTopic]: 'orders',
      [DLT_HEADER.sourcePartition]: '2',
      [DLT_HEADER.sourceOffset]: '41',
      [DLT_HEADER.consumerGroup]: 'svc.orders',
      [DLT_HEADER.failedAt]: '2026-01-01T00:00:00.000Z',
    });
  });
});
